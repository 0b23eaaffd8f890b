// The ncurses screen arrives with its issue.
