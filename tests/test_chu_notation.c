#include "tharness.h"
const t_case chu_notation_tests[] = {
    {0},
};
