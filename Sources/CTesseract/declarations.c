// A C target needs a source file; CTesseract is declarations only (include/CTesseract.h).
#include "CTesseract.h"
