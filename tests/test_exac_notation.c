#include "tharness.h"
const t_case exac_notation_tests[] = {
    {0},
};
