/* rnd_png.c: screenshots as PNG (and BMP) files without an image library. PNG image data is stored, not compressed
 * (deflate's "stored" blocks): every viewer reads it, and a screenshot is written once. */
#include "rnd.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct PngOut {
    FILE *f;
    uint32_t table[256]; /* CRC-32 of each byte value */
    uint32_t crc;  /* of the current chunk's type and data */
    uint32_t s1, s2; /* Adler-32 of the image data (zlib's checksum) */
    int failed;
} PngOut;

static uint32_t rnd_crc_table_entry(uint32_t c)
{
    for (int k = 0; k < 8; k++)
        c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
    return c;
}

static void rnd_png_bytes(PngOut *o, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        o->crc = o->table[(o->crc ^ p[i]) & 0xff] ^ (o->crc >> 8);
    if (fwrite(p, 1, n, o->f) != n)
        o->failed = 1;
}

static void rnd_png_u32(PngOut *o, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    rnd_png_bytes(o, b, 4);
}

static void rnd_png_chunk_begin(PngOut *o, uint32_t len, const char *type)
{
    rnd_png_u32(o, len); /* the length is outside the CRC: reset after it */
    o->crc = 0xffffffffu;
    rnd_png_bytes(o, (const uint8_t *)type, 4);
}

static void rnd_png_chunk_end(PngOut *o) { rnd_png_u32(o, o->crc ^ 0xffffffffu); }

/* Image data bytes: counted into Adler-32 as they go. */
static void rnd_png_data(PngOut *o, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        o->s1 = (o->s1 + p[i]) % 65521u;
        o->s2 = (o->s2 + o->s1) % 65521u;
    }
    rnd_png_bytes(o, p, n);
}

int rnd_png_write(FILE *f, const uint8_t *rgb, int w, int h, int pitch)
{
    PngOut o;
    memset(&o, 0, sizeof o);
    o.f = f;
    o.s1 = 1;
    for (uint32_t i = 0; i < 256; i++)
        o.table[i] = rnd_crc_table_entry(i);
    const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (fwrite(sig, 1, 8, f) != 8)
        return -1;
    rnd_png_chunk_begin(&o, 13, "IHDR");
    rnd_png_u32(&o, (uint32_t)w);
    rnd_png_u32(&o, (uint32_t)h);
    const uint8_t ihdr[5] = {8, 2, 0, 0, 0}; /* 8 bits, RGB, deflate, no filter, no interlace */
    rnd_png_bytes(&o, ihdr, 5);
    rnd_png_chunk_end(&o);
    /* each row is a filter byte (0: none) and its pixels; the stream is cut into stored blocks of at most 65535 */
    uint64_t raw = (uint64_t)h * (1u + 3u * (uint64_t)w);
    uint64_t blocks = (raw + 65534) / 65535;
    uint64_t idat = 2 + raw + 5 * blocks + 4;
    if (idat > 0x7fffffffu)
        return -1;
    rnd_png_chunk_begin(&o, (uint32_t)idat, "IDAT");
    const uint8_t zhead[2] = {0x78, 0x01};
    rnd_png_bytes(&o, zhead, 2);
    uint64_t left_in_block = 0, written = 0;
    for (int y = 0; y < h; y++) {
        const uint8_t *row = rgb + (size_t)y * (size_t)pitch;
        for (int part = -1; part < 3 * w;) {
            if (left_in_block == 0) {
                uint64_t n = raw - written < 65535 ? raw - written : 65535;
                uint8_t bh[5] = {(uint8_t)(written + n == raw), (uint8_t)n, (uint8_t)(n >> 8), (uint8_t)~n,
                                 (uint8_t)(~n >> 8)};
                rnd_png_bytes(&o, bh, 5);
                left_in_block = n;
            }
            if (part < 0) {
                const uint8_t none = 0;
                rnd_png_data(&o, &none, 1);
                part = 0, written++, left_in_block--;
                continue;
            }
            uint64_t n = (uint64_t)(3 * w - part) < left_in_block ? (uint64_t)(3 * w - part) : left_in_block;
            rnd_png_data(&o, row + part, (size_t)n);
            part += (int)n, written += n, left_in_block -= n;
        }
    }
    rnd_png_u32(&o, (o.s2 << 16) | o.s1);
    rnd_png_chunk_end(&o);
    rnd_png_chunk_begin(&o, 0, "IEND");
    rnd_png_chunk_end(&o);
    return o.failed ? -1 : 0;
}

int rnd_bmp_write(FILE *f, const uint8_t *rgb, int w, int h, int pitch)
{
    /* 24-bit BMP: rows bottom-up, blue first, each padded to 4 bytes */
    uint32_t row = ((uint32_t)w * 3u + 3u) & ~3u, data = row * (uint32_t)h;
    uint8_t hd[54] = {'B', 'M'};
    uint32_t fields[][2] = {{2, 54 + data}, {10, 54}, {14, 40}, {18, (uint32_t)w}, {22, (uint32_t)h}, {34, data},
                            {38, 2835}, {42, 2835}};
    for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++)
        for (int b = 0; b < 4; b++)
            hd[fields[k][0] + (uint32_t)b] = (uint8_t)(fields[k][1] >> (8 * b));
    hd[26] = 1;  /* planes */
    hd[28] = 24; /* bits per pixel */
    int failed = fwrite(hd, 1, sizeof hd, f) != sizeof hd;
    uint8_t line[3 * 8192 + 4];
    if ((size_t)row > sizeof line)
        return -1;
    for (int y = h - 1; y >= 0 && !failed; y--) {
        const uint8_t *src = rgb + (size_t)y * (size_t)pitch;
        memset(line, 0, row);
        for (int x = 0; x < w; x++)
            line[3 * x] = src[3 * x + 2], line[3 * x + 1] = src[3 * x + 1], line[3 * x + 2] = src[3 * x];
        failed = fwrite(line, 1, row, f) != row;
    }
    return failed ? -1 : 0;
}
