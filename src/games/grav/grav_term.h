/* The Grav view of the terminal game (term/play.h). */
#ifndef GV_GRAV_TERM_H
#define GV_GRAV_TERM_H

struct play_view;
extern const struct play_view gv_grav_term_view;

#endif
