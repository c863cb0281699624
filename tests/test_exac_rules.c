#include "tharness.h"
const t_case exac_rules_tests[] = {
    {0},
};
