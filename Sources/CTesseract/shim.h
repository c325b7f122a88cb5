// Tesseract's C API, Leptonica (images, normalisation) and libheif (HEIC), from Debian's
// libtesseract-dev, libleptonica-dev and libheif-dev.
#include <tesseract/capi.h>
#include <leptonica/allheaders.h>
#include <libheif/heif.h>

// Debian's Tesseract runs parts of recognition on OpenMP threads (libgomp, which it links), with
// team sizes of its own. scan runs one recogniser per core, so it turns OpenMP's parallel regions
// off (no active level: every team has one thread); OMP_THREAD_LIMIT would be read too early,
// when libgomp loads.
void omp_set_max_active_levels(int);
