#include <iostream>

#include "sim/cli.h"

int main(int argc, char** argv) { return photonsim::run_cli(argc, argv, std::cout, std::cerr); }
