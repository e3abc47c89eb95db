// The entry point of the suites that need nothing before doctest runs (the same main that
// DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN writes). Suites with a main of their own link only
// ringviz_doctest.
#include <doctest/doctest.h>

int main(int argc, char** argv) { return doctest::Context(argc, argv).run(); }
