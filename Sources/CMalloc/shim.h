// glibc's malloc tuning (mallopt), which the Glibc module does not bring in; the command line sets it (main.swift).
#include <malloc.h>
