// The one type and the error-correction levels of libqrencode (qrencode.h, version 4) that the
// HTML report's payment codes use, declared with the values of its header, so that the package
// builds without libqrencode-dev: the library is opened when a report first draws a QR code
// (SplitBillReports' QRCodeLibrary), and a machine without it is told what to install.
#ifndef SPLITBILL_CQRENCODE_H
#define SPLITBILL_CQRENCODE_H

// A symbol: `width` × `width` modules, a byte each, row by row; bit 0 set means dark.
typedef struct QRcode {
  int version;
  int width;
  unsigned char *data;
} QRcode;

// The error-correction levels (an int-sized enumeration).
typedef enum QRecLevel {
  QR_ECLEVEL_L = 0,
  QR_ECLEVEL_M = 1,
  QR_ECLEVEL_Q = 2,
  QR_ECLEVEL_H = 3
} QRecLevel;

#endif
