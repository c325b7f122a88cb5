// A C target needs a source file; CQRencode is declarations only (include/CQRencode.h).
#include "CQRencode.h"
