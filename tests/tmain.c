/* Test runner: gv_tests <group> [test-name-substring] runs one group of tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "tharness.h"

int t_failures;
long t_checks;
const char *t_current;

extern const t_case core_tests[], conformance_tests[], chu_perft_tests[], chu_rules_tests[],
    chu_notation_tests[], fuzz_tests[], exac_perft_tests[], exac_rules_tests[],
    exac_notation_tests[], grav_rules_tests[], grav_record_tests[], grav_flow_rules_tests[],
    search_tests[], chu_search_tests[], exac_search_tests[], grav_ai_tests[], engine_tests[], proto_tests[], gtp_tests[],
    record_tests[], server_tests[], ws_frame_tests[], send_batch_tests[];

static const struct {
    const char *name;
    const t_case *cases;
} groups[] = {
    {"core", core_tests},
    {"conformance", conformance_tests},
    {"chu_perft", chu_perft_tests},
    {"chu_rules", chu_rules_tests},
    {"chu_notation", chu_notation_tests},
    {"exac_perft", exac_perft_tests},
    {"exac_rules", exac_rules_tests},
    {"exac_notation", exac_notation_tests},
    {"grav_rules", grav_rules_tests},
    {"grav_record", grav_record_tests},
    {"grav_flow_rules", grav_flow_rules_tests},
    {"fuzz", fuzz_tests},
    {"search", search_tests},
    {"chu_search", chu_search_tests},
    {"exac_search", exac_search_tests},
    {"grav_ai", grav_ai_tests},
    {"engine", engine_tests},
    {"proto", proto_tests},
    {"gtp", gtp_tests},
    {"record", record_tests},
    {"server", server_tests},
    {"ws_frame", ws_frame_tests},
    {"send_batch", send_batch_tests},
};

int main(int argc, char **argv)
{
    gv_games_init();
    int ran = 0;
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
        if (argc > 1 && strcmp(argv[1], groups[g].name) != 0 && strcmp(argv[1], "all") != 0)
            continue;
        for (const t_case *c = groups[g].cases; c->name; c++) {
            if (argc > 2 && !strstr(c->name, argv[2]))
                continue;
            int before = t_failures;
            t_current = c->name;
            c->fn();
            ran++;
            printf("%s %s.%s\n", t_failures == before ? "ok  " : "FAIL", groups[g].name, c->name);
        }
    }
    if (!ran) {
        fprintf(stderr, "no tests matched\n");
        return 2;
    }
    printf("%d tests, %d failed checks\n", ran, t_failures);
    return t_failures ? 1 : 0;
}
