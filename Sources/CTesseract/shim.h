// Tesseract's C API, Leptonica (images, normalisation) and libheif (HEIC), from Debian's
// libtesseract-dev, libleptonica-dev and libheif-dev: their types and constants. The libraries
// are not linked: SplitBillScan opens them when scan first runs (ScanLibraries.swift).
#include <tesseract/capi.h>
#include <leptonica/allheaders.h>
#include <libheif/heif.h>

