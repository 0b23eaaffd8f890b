#ifndef URLCACHE_CNCURSES_SHIM_H
#define URLCACHE_CNCURSES_SHIM_H
// SwiftPM drops the -D flags of ncursesw.pc: without these the wide-character
// calls (setcchar, wadd_wch) are not declared.
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <curses.h>
#include <term.h>
#endif
