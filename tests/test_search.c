/* Alpha-beta search on Chu Shogi and Exac: the transposition table, immediate wins
 * found with a forced-result score, defences against a win in one, the state restored. */
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"
#include "search/search.h"
#include "search/tt.h"
#include "tharness.h"

static int slow_tests(void)
{
    const char *s = getenv("GV_SLOW_TESTS");
    return !s || atoi(s) != 0;
}

static void test_tt_store_probe_and_replace(void)
{
    gv_tt *tt = gv_tt_new(1);
    CHECK(tt != NULL);
    gv_tt_entry te;
    CHECK(!gv_tt_probe(tt, 0x1234567812345678ULL, &te));
    gv_tt_store(tt, 0x1234567812345678ULL, 77, -150, 20, 5, TT_EXACT);
    gv_tt_entry *e = gv_tt_probe(tt, 0x1234567812345678ULL, &te) ? &te : NULL;
    CHECK(e != NULL);
    if (e) {
        CHECK_EQ_INT(e->move, 77);
        CHECK_EQ_INT(e->score, -150);
        CHECK_EQ_INT(e->eval, 20);
        CHECK_EQ_INT(e->depth - 1, 5);
        CHECK_EQ_INT(e->genbound & 3, TT_EXACT);
    }
    /* A shallower bound for the same key keeps the deeper exact entry. */
    gv_tt_store(tt, 0x1234567812345678ULL, 0, 10, 20, 0, TT_UPPER);
    e = gv_tt_probe(tt, 0x1234567812345678ULL, &te) ? &te : NULL;
    CHECK(e && e->move == 77 && e->depth - 1 == 5);
    /* Many keys: every stored key of the last few is found again. */
    for (uint64_t k = 1; k <= 100000; k++)
        gv_tt_store(tt, gv_mix64(k), (gv_move)k, 0, 0, 1, TT_LOWER);
    int found = 0;
    for (uint64_t k = 99990; k <= 100000; k++) {
        gv_tt_entry x;
        found += gv_tt_probe(tt, gv_mix64(k), &x) && x.move == (gv_move)k;
    }
    CHECK_EQ_INT(found, 11);
    CHECK(gv_tt_hashfull(tt) > 0);
    gv_tt_clear(tt);
    CHECK(!gv_tt_probe(tt, gv_mix64(100000), &te));
    gv_tt_free(tt);
}

/* An entry read while another thread rewrites it (its data from one write, its key
 * check from another) is a miss, never the other write's move or score. */
static void test_tt_torn_entry_is_a_miss(void)
{
    gv_tt *tt = gv_tt_new(1);
    CHECK(tt != NULL);
    uint64_t key = 0x0123456789abcdefULL;
    gv_tt_store(tt, key, 11, 100, 5, 4, TT_EXACT);
    gv_tt_entry te;
    CHECK(gv_tt_probe(tt, key, &te) && te.move == 11 && te.score == 100);
    /* Find the slot and put another write's data under the first write's check. */
    gv_tt_cluster *c = &tt->c[(uint64_t)(((unsigned __int128)key * tt->n) >> 64)];
    gv_tt_slot *slot = NULL;
    for (int i = 0; i < TT_CLUSTER && !slot; i++)
        if (atomic_load(&c->e[i].meta))
            slot = &c->e[i];
    CHECK(slot != NULL);
    if (slot) {
        uint64_t meta = atomic_load(&slot->meta);
        gv_tt_store(tt, key, 22, -300, 7, 9, TT_LOWER);
        CHECK(gv_tt_probe(tt, key, &te) && te.move == 22 && te.score == -300);
        atomic_store(&slot->meta, meta);   /* the first write's meta, the second's data */
        CHECK(!gv_tt_probe(tt, key, &te));
    }
    gv_tt_free(tt);
}

/* Does making m end the game with the mover winning? */
static int wins_at_once(const gv_game *g, void *st, gv_move m)
{
    int me = g->to_move(st);
    g->make(st, m);
    gv_result r;
    int win = g->status(st, &r) == GV_WIN && r.winner == me;
    g->unmake(st);
    return win;
}

/* On positions of seeded random games: when a move wins at once, a depth-2 search
 * returns a winning move with a forced-result score; the state comes back unchanged. */
static void check_finds_wins(const char *game, int games, int max_plies)
{
    const gv_game *g = gv_game_find(game);
    const gv_ab_hooks *h = gv_game_find(game)->ai->ab;
    CHECK(h != NULL);
    if (!h)
        return;
    char err[GV_ERRLEN];
    void *st = malloc(g->state_size), *copy = malloc(g->state_size);
    gv_move *moves = malloc(GV_MAX_MOVES * sizeof *moves);
    gv_tt *tt = gv_tt_new(2);
    gv_rng rng;
    gv_rng_seed(&rng, 2026);
    int positions = 0, with_win = 0;
    for (int gi = 0; gi < games; gi++) {
        g->init(st, NULL, err, sizeof err);
        for (int ply = 0; ply < max_plies; ply++) {
            int n = g->legal_moves(st, moves);
            if (n == 0)
                break;
            int win = 0;
            for (int i = 0; i < n && !win; i++)
                win = wins_at_once(g, st, moves[i]);
            if (win || ply % 7 == 3) {
                positions++;
                with_win += win;
                memcpy(copy, st, g->state_size);
                gv_limits lim;
                memset(&lim, 0, sizeof lim);
                lim.depth = 2;
                gv_search_ctl ctl;
                atomic_init(&ctl.stop, 0);
                ctl.start_ms = gv_now_ms();
                gv_search_result r = gv_ab_search(g, h, st, tt, &lim, &ctl, NULL, NULL);
                CHECK(memcmp(copy, st, g->state_size) == 0);
                int legal = 0;
                for (int i = 0; i < n; i++)
                    legal |= moves[i] == r.best;
                CHECK(legal);
                if (win) {
                    CHECK(r.is_mate && r.score > 0);
                    CHECK(wins_at_once(g, st, r.best));
                }
            }
            g->make(st, moves[gv_rng_below(&rng, (uint32_t)n)]);
        }
    }
    CHECK(with_win > 0);
    CHECK(positions > 20);
    gv_tt_free(tt);
    free(st);
    free(copy);
    free(moves);
}

static void test_chu_search_takes_a_win_in_one(void)
{
    check_finds_wins("chu", slow_tests() ? 8 : 2, 400);
}

static void test_exac_search_takes_a_win_in_one(void)
{
    check_finds_wins("exac", slow_tests() ? 30 : 6, 200);
}

/* A node limit is kept exactly and a stop request is honoured at once. */
static void test_search_node_limit_and_stop_flag(void)
{
    const char *names[2] = {"chu", "exac"};
    char err[GV_ERRLEN];
    for (int i = 0; i < 2; i++) {
        const gv_game *g = gv_game_find(names[i]);
        void *st = malloc(g->state_size);
        g->init(st, NULL, err, sizeof err);
        gv_tt *tt = gv_tt_new(2);
        gv_limits lim;
        memset(&lim, 0, sizeof lim);
        lim.nodes = 5000;
        gv_search_ctl ctl;
        atomic_init(&ctl.stop, 0);
        ctl.start_ms = gv_now_ms();
        gv_search_result r = gv_ab_search(g, gv_game_find(names[i])->ai->ab, st, tt, &lim, &ctl, NULL, NULL);
        CHECK(r.best != 0);
        CHECK(r.nodes <= 5000 + 1);
        /* Stopped before it starts: still a legal move, at once. */
        lim.nodes = 0;
        atomic_store(&ctl.stop, 1);
        int64_t t0 = gv_now_ms();
        r = gv_ab_search(g, gv_game_find(names[i])->ai->ab, st, tt, &lim, &ctl, NULL, NULL);
        CHECK(r.best != 0);
        CHECK(gv_now_ms() - t0 < 50);
        gv_tt_free(tt);
        free(st);
    }
}

const t_case search_tests[] = {
    T(test_tt_store_probe_and_replace),
    T(test_tt_torn_entry_is_a_miss),
    T(test_chu_search_takes_a_win_in_one),
    T(test_exac_search_takes_a_win_in_one),
    T(test_search_node_limit_and_stop_flag),
    {0},
};
