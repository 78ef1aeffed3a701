/* lab_svg.c: SVG primitives of the chart writers (see lab_svg.h). */
#include "lab_svg.h"

#include <math.h>

/* XML-escaped text. SVG collapses runs of spaces, so each space after the first of a run is a no-break space
 * (&#160;): "seed 1  5 laps" keeps its two spaces. */
void lab_svg_escaped(FILE *out, const char *s)
{
    for (const char *p = s; *p; p++) {
        if (*p == ' ' && (p == s || p[-1] == ' ')) {
            fputs("&#160;", out);
            continue;
        }
        switch (*p) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        default:
            if ((unsigned char)*p >= 0x20)
                fputc(*p, out);
        }
    }
}

/* Text at (x, y); anchor "start", "middle" or "end". */
void lab_svg_text(FILE *out, double x, double y, const char *anchor, int size, const char *fill, const char *s)
{
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\" fill=\"%s\">", x, y, anchor, size,
            fill);
    lab_svg_escaped(out, s);
    fputs("</text>\n", out);
}

void lab_svg_line(FILE *out, double x1, double y1, double x2, double y2, const char *stroke, double width)
{
    fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.1f\"/>\n", x1,
            y1, x2, y2, stroke, width);
}

void lab_svg_colour(char *buf, size_t len, const uint8_t c[3])
{
    snprintf(buf, len, "#%02x%02x%02x", c[0], c[1], c[2]);
}

/* An overtake marker: an upward triangle in the passer's colour, outlined so that it reads on its own line. */
void lab_svg_pass(FILE *out, double x, double y, const char *fill)
{
    fprintf(out, "<path class=\"pass\" d=\"M%.1f %.1fl6 10h-12z\" fill=\"%s\" stroke=\"" LAB_SVG_BG "\" "
            "stroke-width=\"1.2\"/>\n", x, y - 6, fill);
}

/* A contact marker: an orange cross. */
void lab_svg_contact(FILE *out, double x, double y)
{
    fprintf(out, "<path class=\"contact\" d=\"M%.1f %.1fl8 8m0 -8l-8 8\" stroke=\"#ff9f1c\" stroke-width=\"2.2\" "
            "fill=\"none\"/>\n", x - 4, y - 4);
}

/* A step of 1, 2 or 5 times a power of ten giving about `ticks` intervals over `range`. */
double lab_svg_nice_step(double range, int ticks)
{
    double raw = range / ticks, mag = pow(10.0, floor(log10(raw)));
    double r = raw / mag;
    return (r <= 1.0 ? 1.0 : r <= 2.0 ? 2.0 : r <= 5.0 ? 5.0 : 10.0) * mag;
}


int lab_svg_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
