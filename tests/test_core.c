#include "tharness.h"
const t_case core_tests[] = {
    {0},
};
