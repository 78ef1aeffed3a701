/* lab_json.c: strict JSON parsing into a tree (see lab_json.h). Recursive descent with a depth limit, so hostile
 * input can neither overflow the stack nor make the parser read past the end of its text. */
#include "lab.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define JSON_BLOCK_NODES 128

struct LabJsonBlock {
    LabJsonBlock *next;
    int used;
    LabJson nodes[JSON_BLOCK_NODES];
};

typedef struct JsonParser {
    const char *text;
    size_t len, pos;
    char *strings;
    size_t strings_used;
    LabJsonDoc *doc;
    char *err;
    size_t err_len;
    int failed;
} JsonParser;

static void json_fail(JsonParser *p, const char *fmt, ...)
{
    if (p->failed)
        return;
    p->failed = 1;
    int n = snprintf(p->err, p->err_len, "column %zu: ", p->pos + 1);
    if (n < 0 || (size_t)n >= p->err_len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err + n, p->err_len - (size_t)n, fmt, ap);
    va_end(ap);
}

static LabJson *json_node(JsonParser *p, LabJsonType type)
{
    LabJsonBlock *b = p->doc->blocks;
    if (!b || b->used == JSON_BLOCK_NODES) {
        b = malloc(sizeof *b);
        if (!b) {
            json_fail(p, "out of memory");
            return NULL;
        }
        b->next = p->doc->blocks;
        b->used = 0;
        p->doc->blocks = b;
    }
    LabJson *v = &b->nodes[b->used++];
    memset(v, 0, sizeof *v);
    v->type = type;
    return v;
}

static void json_skip_ws(JsonParser *p)
{
    while (p->pos < p->len) {
        char c = p->text[p->pos];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            return;
        p->pos++;
    }
}

static int json_peek(const JsonParser *p) { return p->pos < p->len ? (unsigned char)p->text[p->pos] : -1; }

/* A short description of the character at the cursor, for messages. */
static const char *json_found(const JsonParser *p, char *buf, size_t len)
{
    int c = json_peek(p);
    if (c < 0)
        return "the end of the line";
    if (c >= 0x20 && c < 0x7f)
        snprintf(buf, len, "'%c'", c);
    else
        snprintf(buf, len, "byte 0x%02x", c);
    return buf;
}

static LabJson *json_value(JsonParser *p, int depth);

static int json_literal(JsonParser *p, const char *word)
{
    size_t n = strlen(word);
    if (p->len - p->pos < n || memcmp(p->text + p->pos, word, n) != 0) {
        json_fail(p, "invalid literal (expected %s)", word);
        return 1;
    }
    p->pos += n;
    return 0;
}

static int json_hex4(JsonParser *p, unsigned *out)
{
    if (p->len - p->pos < 4) {
        json_fail(p, "truncated \\u escape");
        return 1;
    }
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p->text[p->pos + (size_t)i];
        unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
                     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                                            : 16u;
        if (d == 16u) {
            json_fail(p, "bad hex digit in \\u escape");
            return 1;
        }
        v = v * 16u + d;
    }
    p->pos += 4;
    *out = v;
    return 0;
}

static size_t json_put_utf8(char *o, unsigned cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xC0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* One escape after the backslash; appends its bytes at o. Returns the byte count, 0 on error. */
static size_t json_escape(JsonParser *p, char *o)
{
    if (p->pos >= p->len) {
        json_fail(p, "unterminated string");
        return 0;
    }
    char c = p->text[p->pos++];
    const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
    const char *hit = c ? strchr(from, c) : NULL;
    if (hit) {
        o[0] = to[hit - from];
        return 1;
    }
    if (c != 'u') {
        p->pos -= 2; /* point at the backslash */
        json_fail(p, "invalid escape in a string");
        return 0;
    }
    unsigned cp;
    if (json_hex4(p, &cp))
        return 0;
    if (cp >= 0xDC00 && cp <= 0xDFFF) {
        json_fail(p, "lone low surrogate in \\u escape");
        return 0;
    }
    if (cp >= 0xD800 && cp <= 0xDBFF) {
        unsigned lo;
        if (p->len - p->pos < 2 || p->text[p->pos] != '\\' || p->text[p->pos + 1] != 'u') {
            json_fail(p, "high surrogate without its low half");
            return 0;
        }
        p->pos += 2;
        if (json_hex4(p, &lo))
            return 0;
        if (lo < 0xDC00 || lo > 0xDFFF) {
            json_fail(p, "high surrogate without its low half");
            return 0;
        }
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
    }
    return json_put_utf8(o, cp);
}

static LabJson *json_string(JsonParser *p)
{
    p->pos++; /* the opening quote */
    char *out = p->strings + p->strings_used;
    size_t n = 0;
    for (;;) {
        if (p->pos >= p->len) {
            json_fail(p, "unterminated string");
            return NULL;
        }
        unsigned char c = (unsigned char)p->text[p->pos];
        if (c == '"')
            break;
        if (c < 0x20) {
            json_fail(p, "control character in a string");
            return NULL;
        }
        p->pos++;
        if (c != '\\') {
            out[n++] = (char)c;
            continue;
        }
        size_t k = json_escape(p, out + n);
        if (k == 0)
            return NULL;
        n += k;
    }
    p->pos++;
    out[n] = '\0';
    p->strings_used += n + 1;
    LabJson *v = json_node(p, LAB_JSON_STRING);
    if (v) {
        v->token = out;
        v->len = n;
    }
    return v;
}

static size_t json_digits(JsonParser *p)
{
    size_t start = p->pos;
    while (p->pos < p->len && p->text[p->pos] >= '0' && p->text[p->pos] <= '9')
        p->pos++;
    return p->pos - start;
}

static LabJson *json_number(JsonParser *p)
{
    size_t start = p->pos;
    if (json_peek(p) == '-')
        p->pos++;
    if (json_peek(p) == '0')
        p->pos++;
    else if (json_digits(p) == 0) {
        json_fail(p, "invalid number");
        return NULL;
    }
    if (json_peek(p) == '.') {
        p->pos++;
        if (json_digits(p) == 0) {
            json_fail(p, "invalid number: digits expected after '.'");
            return NULL;
        }
    }
    if (json_peek(p) == 'e' || json_peek(p) == 'E') {
        p->pos++;
        if (json_peek(p) == '+' || json_peek(p) == '-')
            p->pos++;
        if (json_digits(p) == 0) {
            json_fail(p, "invalid number: digits expected in the exponent");
            return NULL;
        }
    }
    size_t n = p->pos - start;
    char *tok = p->strings + p->strings_used;
    memcpy(tok, p->text + start, n);
    tok[n] = '\0';
    p->strings_used += n + 1;
    errno = 0;
    double x = strtod(tok, NULL);
    if (errno == ERANGE && (x > 1.0 || x < -1.0)) {
        p->pos = start;
        json_fail(p, "number out of range");
        return NULL;
    }
    LabJson *v = json_node(p, LAB_JSON_NUMBER);
    if (v) {
        v->number = x;
        v->token = tok;
    }
    return v;
}

/* Elements of an array or members of an object, after the opening bracket. */
static LabJson *json_container(JsonParser *p, int depth, bool object)
{
    char close = object ? '}' : ']';
    char buf[16];
    LabJson *v = json_node(p, object ? LAB_JSON_OBJECT : LAB_JSON_ARRAY);
    if (!v)
        return NULL;
    p->pos++;
    json_skip_ws(p);
    if (json_peek(p) == close) {
        p->pos++;
        return v;
    }
    LabJson **tail = &v->child;
    for (;;) {
        json_skip_ws(p);
        const char *key = NULL;
        if (object) {
            if (json_peek(p) != '"') {
                json_fail(p, "expected a string key, found %s", json_found(p, buf, sizeof buf));
                return NULL;
            }
            size_t key_pos = p->pos;
            LabJson *k = json_string(p);
            if (!k)
                return NULL;
            key = k->token;
            if (v->count >= LAB_JSON_MAX_MEMBERS) {
                json_fail(p, "more than %d members in an object", LAB_JSON_MAX_MEMBERS);
                return NULL;
            }
            if (strlen(key) != k->len || lab_json_get(v, key)) {
                p->pos = key_pos;
                json_fail(p, strlen(key) != k->len ? "NUL character in a key" : "duplicate key \"%s\"", key);
                return NULL;
            }
            json_skip_ws(p);
            if (json_peek(p) != ':') {
                json_fail(p, "expected ':' after a key, found %s", json_found(p, buf, sizeof buf));
                return NULL;
            }
            p->pos++;
        }
        LabJson *e = json_value(p, depth + 1);
        if (!e)
            return NULL;
        e->key = key;
        *tail = e;
        tail = &e->next;
        v->count++;
        json_skip_ws(p);
        int c = json_peek(p);
        if (c == ',') {
            p->pos++;
            continue;
        }
        if (c == close) {
            p->pos++;
            return v;
        }
        json_fail(p, "expected ',' or '%c', found %s", close, json_found(p, buf, sizeof buf));
        return NULL;
    }
}

static LabJson *json_value(JsonParser *p, int depth)
{
    char buf[16];
    if (depth > LAB_JSON_MAX_DEPTH) {
        json_fail(p, "nested deeper than %d levels", LAB_JSON_MAX_DEPTH);
        return NULL;
    }
    json_skip_ws(p);
    int c = json_peek(p);
    LabJson *v;
    switch (c) {
    case '{': return json_container(p, depth, true);
    case '[': return json_container(p, depth, false);
    case '"': return json_string(p);
    case 't':
    case 'f':
        if (json_literal(p, c == 't' ? "true" : "false"))
            return NULL;
        v = json_node(p, LAB_JSON_BOOL);
        if (v)
            v->boolean = c == 't';
        return v;
    case 'n':
        return json_literal(p, "null") ? NULL : json_node(p, LAB_JSON_NULL);
    default:
        if (c == '-' || (c >= '0' && c <= '9'))
            return json_number(p);
        json_fail(p, "expected a value, found %s", json_found(p, buf, sizeof buf));
        return NULL;
    }
}

int lab_json_parse(const char *text, size_t len, LabJsonDoc *doc, char *err, size_t err_len)
{
    memset(doc, 0, sizeof *doc);
    if (err_len)
        err[0] = '\0';
    JsonParser p = {text, len, 0, NULL, 0, doc, err, err_len, 0};
    /* Decoded strings never grow, and each number token gains one NUL: 2 * len + 2 always suffices. */
    if (len > (SIZE_MAX - 2) / 2 || !(doc->strings = malloc(2 * len + 2))) {
        snprintf(err, err_len, "out of memory");
        return 1;
    }
    p.strings = doc->strings;
    LabJson *root = json_value(&p, 0);
    if (root) {
        json_skip_ws(&p);
        if (p.pos < p.len)
            json_fail(&p, "unexpected text after the value");
    }
    if (p.failed || !root)
        return 1;
    doc->root = root;
    return 0;
}

void lab_json_free(LabJsonDoc *doc)
{
    while (doc->blocks) {
        LabJsonBlock *next = doc->blocks->next;
        free(doc->blocks);
        doc->blocks = next;
    }
    free(doc->strings);
    doc->strings = NULL;
    doc->root = NULL;
}

const LabJson *lab_json_get(const LabJson *object, const char *key)
{
    if (!object || object->type != LAB_JSON_OBJECT)
        return NULL;
    for (const LabJson *m = object->child; m; m = m->next)
        if (strcmp(m->key, key) == 0)
            return m;
    return NULL;
}

const char *lab_json_type_name(LabJsonType type)
{
    static const char *names[] = {"null", "a boolean", "a number", "a string", "an array", "an object"};
    return (unsigned)type < sizeof names / sizeof names[0] ? names[type] : "?";
}
