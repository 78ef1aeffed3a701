/* lab_svg.h: SVG primitives shared by the chart writers (private to lab/). Dark background, as on a timing screen,
 * so that bright driver colours read well. */
#ifndef LAB_SVG_H
#define LAB_SVG_H

#include "lab.h"

#include <stdint.h>
#include <stdio.h>

#define LAB_SVG_BG "#15151e"
#define LAB_SVG_GRID "#33333f"
#define LAB_SVG_TEXT "#e8e8f0"
#define LAB_SVG_DIM "#9a9aaa"
#define LAB_SVG_FONT "font-family=\"DejaVu Sans, Arial, sans-serif\""

/* XML-escaped text; each space after the first of a run is a no-break space, which SVG does not collapse. */
void lab_svg_escaped(FILE *out, const char *s);
/* Text at (x, y); anchor "start", "middle" or "end". */
void lab_svg_text(FILE *out, double x, double y, const char *anchor, int size, const char *fill, const char *s);
void lab_svg_line(FILE *out, double x1, double y1, double x2, double y2, const char *stroke, double width);
/* "#rrggbb" */
void lab_svg_colour(char *buf, size_t len, const uint8_t c[3]);
/* A step of 1, 2 or 5 times a power of ten giving about `ticks` intervals over `range`. */
double lab_svg_nice_step(double range, int ticks);
/* qsort comparison of doubles, ascending. */
int lab_svg_cmp_double(const void *a, const void *b);
/* The race chart's event markers: an overtake (a triangle in the passer's colour) and a contact (an orange cross). */
void lab_svg_pass(FILE *out, double x, double y, const char *fill);
void lab_svg_contact(FILE *out, double x, double y);

#endif
