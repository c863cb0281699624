/* Chu Shogi's part of the server's JSON views (server/web_view.h): its pieces' help and
 * its moves' texts in TSA and Japanese. */
#ifndef GV_CHU_WEB_H
#define GV_CHU_WEB_H

struct gv_web_view;
extern const struct gv_web_view gv_chu_web;

#endif
