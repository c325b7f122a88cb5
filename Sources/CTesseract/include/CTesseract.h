// The few types and constants of Tesseract's C API, Leptonica and libheif that `scan` uses,
// declared here with the values of their headers (Tesseract 5, Leptonica 1.82, libheif 1.15), so
// that the package builds without libtesseract-dev, libleptonica-dev or libheif-dev: the
// libraries themselves are opened when `scan` first runs (SplitBillScan's ScanLibraries), and a
// machine without them is told what to install. Each declaration matches the library's ABI:
// the enumerations are C `int`s, `struct heif_error` is returned by value.
#ifndef SPLITBILL_CTESSERACT_H
#define SPLITBILL_CTESSERACT_H

// Leptonica's picture: only ever handled through its functions (an opaque pointer).
typedef struct Pix PIX;

// Leptonica's message severities (environ.h): the highest prints nothing.
enum { L_SEVERITY_NONE = 6 };

// Tesseract's page segmentation modes (tesseract/capi.h), up to the ones scan uses.
typedef enum TessPageSegMode {
  PSM_OSD_ONLY = 0,
  PSM_AUTO_OSD = 1,
  PSM_AUTO_ONLY = 2,
  PSM_AUTO = 3,
  PSM_SINGLE_COLUMN = 4,
  PSM_SINGLE_BLOCK_VERT_TEXT = 5,
  PSM_SINGLE_BLOCK = 6
} TessPageSegMode;

// libheif (libheif/heif.h): the error every call returns, and the one colour space, chroma and
// channel scan decodes to.
enum heif_error_code { heif_error_Ok = 0 };
enum heif_suberror_code { heif_suberror_Unspecified = 0 };
struct heif_error {
  enum heif_error_code code;
  enum heif_suberror_code subcode;
  const char *message;
};
enum heif_colorspace { heif_colorspace_RGB = 1 };
enum heif_chroma { heif_chroma_interleaved_RGB = 10 };
enum heif_channel { heif_channel_interleaved = 10 };

#endif
