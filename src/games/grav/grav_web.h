/* Grav's part of the server's JSON views (server/web_view.h). */
#ifndef GV_GRAV_WEB_H
#define GV_GRAV_WEB_H

struct gv_web_view;
extern const struct gv_web_view gv_grav_web;

#endif
