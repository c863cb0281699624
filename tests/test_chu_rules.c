#include "tharness.h"
const t_case chu_rules_tests[] = {
    {0},
};
