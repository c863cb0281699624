/* The Chu Shogi view of the terminal game (term/play.h). */
#ifndef GV_CHU_TERM_H
#define GV_CHU_TERM_H

struct play_view;
extern const struct play_view gv_chu_term_view;

#endif
