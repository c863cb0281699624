/* Exaç's part of the server's JSON views (server/web_view.h). */
#ifndef GV_EXAC_WEB_H
#define GV_EXAC_WEB_H

struct gv_web_view;
extern const struct gv_web_view gv_exac_web;

#endif
