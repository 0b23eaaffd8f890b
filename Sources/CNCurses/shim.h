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
#include <wchar.h>
#include <curses.h>
#include <term.h>

// Attribute macros are built from NCURSES_BITS shifts Swift cannot import.
static inline attr_t cnc_attr_bold(void) { return A_BOLD; }
static inline attr_t cnc_attr_dim(void) { return A_DIM; }
static inline attr_t cnc_attr_reverse(void) { return A_REVERSE; }

/// Writes one wide character at (y, x) with attributes and an extended
/// colour pair (pairs past 32767 only fit through setcchar's opts pointer).
static inline int cnc_put_wch(int y, int x, wchar_t ch, attr_t attr, int pair) {
    cchar_t cell;
    wchar_t text[2] = { ch, 0 };
    if (setcchar(&cell, text, attr, 0, &pair) != OK) return ERR;
    return mvadd_wch(y, x, &cell);
}

/// Writes one grapheme at (y, x): a spacing character and up to four
/// combining ones after it, NUL-terminated. ERR when ncurses refuses the
/// combination (the caller then writes its first character alone).
static inline int cnc_put_cluster(int y, int x, const wchar_t *text, attr_t attr) {
    cchar_t cell;
    if (setcchar(&cell, text, attr, 0, NULL) != OK) return ERR;
    return mvadd_wch(y, x, &cell);
}

/// The mouse event just read and its position: 1 a button-1 press or
/// click, 2 its release, 3 the wheel up, 4 the wheel down; 0 anything else.
static inline int cnc_mouse_event(int *y, int *x) {
    MEVENT event;
    if (getmouse(&event) != OK) return 0;
    *y = event.y;
    *x = event.x;
    if (event.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)) return 1;
    if (event.bstate & BUTTON1_RELEASED) return 2;
    if (event.bstate & BUTTON4_PRESSED) return 3;
#ifdef BUTTON5_PRESSED
    if (event.bstate & BUTTON5_PRESSED) return 4;
#endif
    return 0;
}

/// Button 1 (clicks and drags) and the wheel (buttons 4 and 5).
static inline mmask_t cnc_mouse_mask(void) {
    mmask_t mask = BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON4_PRESSED;
#ifdef BUTTON5_PRESSED
    mask |= BUTTON5_PRESSED;
#endif
    return mask;
}
static inline int cnc_key_shift_left(void) { return KEY_SLEFT; }
static inline int cnc_key_shift_right(void) { return KEY_SRIGHT; }
static inline int cnc_key_shift_up(void) { return KEY_SR; }
static inline int cnc_key_shift_down(void) { return KEY_SF; }
static inline int cnc_key_resize(void) { return KEY_RESIZE; }
static inline int cnc_key_mouse(void) { return KEY_MOUSE; }
static inline int cnc_key_left(void) { return KEY_LEFT; }
static inline int cnc_key_right(void) { return KEY_RIGHT; }
static inline int cnc_key_enter(void) { return KEY_ENTER; }
static inline int cnc_key_up(void) { return KEY_UP; }
static inline int cnc_key_down(void) { return KEY_DOWN; }
static inline int cnc_key_page_up(void) { return KEY_PPAGE; }
static inline int cnc_key_page_down(void) { return KEY_NPAGE; }
static inline WINDOW *cnc_stdscr(void) { return stdscr; }
static inline int cnc_colors(void) { return COLORS; }
/// Frees what a probing setupterm loaded (each call allocates anew).
static inline void cnc_release_probe(void) {
    TERMINAL *probe = set_curterm(NULL);
    if (probe) del_curterm(probe);
}
static inline int cnc_lines(void) { return LINES; }
static inline int cnc_cols(void) { return COLS; }
// newterm on the process's own stdout and stdin.
static inline SCREEN *cnc_newterm(const char *term) { return newterm(term, stdout, stdin); }
#endif
