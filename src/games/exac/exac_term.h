/* The Exaç view of the terminal game (term/play.h). */
#ifndef GV_EXAC_TERM_H
#define GV_EXAC_TERM_H

struct play_view;
extern const struct play_view gv_exac_term_view;

#endif
