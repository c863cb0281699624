#include "tharness.h"
const t_case conformance_tests[] = {
    {0},
};
