/* trk_xml.c: the XML subset of trk_xml.h, read into arrays of elements and attributes. No recursion (the nesting
 * is a bounded stack), every string copied into one arena, nothing in the input can crash it. */
#include "trk_xml.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct TrkXmlState {
    const char *p, *end;
    int line;
    TrkXmlDoc *doc;
    int node_cap, attr_cap;
    char *arena_at;
    int stack[TRK_XML_MAX_DEPTH];
    int depth;
    int root_done, seen_doctype;
    char *msg;
    size_t msg_len;
    int err_line;
} TrkXmlState;

static int xml_fail(TrkXmlState *s, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->msg, s->msg_len, fmt, ap);
    va_end(ap);
    s->err_line = line;
    return -1;
}

/* Moves on n bytes, counting the newlines passed. */
static void xml_skip(TrkXmlState *s, size_t n)
{
    for (size_t i = 0; i < n && s->p < s->end; i++, s->p++)
        s->line += *s->p == '\n';
}

static int xml_is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static void xml_skip_space(TrkXmlState *s)
{
    while (s->p < s->end && xml_is_space(*s->p))
        xml_skip(s, 1);
}

static int xml_starts(const TrkXmlState *s, const char *lit)
{
    size_t n = strlen(lit);
    return (size_t)(s->end - s->p) >= n && memcmp(s->p, lit, n) == 0;
}

/* Skips past the next `close` (comments, PIs, CDATA); an error naming `what` when it never comes. */
static int xml_skip_past(TrkXmlState *s, const char *close, const char *what)
{
    int line = s->line;
    size_t n = strlen(close);
    while (s->p < s->end && !xml_starts(s, close))
        xml_skip(s, 1);
    if (s->p >= s->end)
        return xml_fail(s, line, "unterminated %s", what);
    xml_skip(s, n);
    return 0;
}

/* <!DOCTYPE ...> with an optional internal subset [...], whose declarations and comments are skipped unread. */
static int xml_skip_doctype(TrkXmlState *s)
{
    int line = s->line, bracket = 0;
    while (s->p < s->end) {
        char c = *s->p;
        if (c == '"' || c == '\'') {
            xml_skip(s, 1);
            while (s->p < s->end && *s->p != c)
                xml_skip(s, 1);
        } else if (xml_starts(s, "<!--")) {
            if (xml_skip_past(s, "-->", "comment") != 0)
                return -1;
            continue;
        } else if (c == '[') {
            bracket++;
        } else if (c == ']') {
            bracket--;
        } else if (c == '>' && bracket <= 0) {
            xml_skip(s, 1);
            return 0;
        }
        xml_skip(s, 1);
    }
    return xml_fail(s, line, "unterminated DOCTYPE");
}

static int xml_is_name_char(unsigned char c, int first)
{
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' || c >= 0x80)
        return 1;
    return !first && ((c >= '0' && c <= '9') || c == '-' || c == '.');
}

/* A name into the arena; NULL when there is none here. */
static const char *xml_name(TrkXmlState *s)
{
    const char *b = s->p;
    while (s->p < s->end && xml_is_name_char((unsigned char)*s->p, s->p == b))
        s->p++;
    if (s->p == b)
        return NULL;
    char *out = s->arena_at;
    memcpy(out, b, (size_t)(s->p - b));
    out[s->p - b] = '\0';
    s->arena_at += s->p - b + 1;
    return out;
}

/* Code point as UTF-8 into out (at most 4 bytes); 0 when it is not a character XML allows. */
static int xml_utf8(unsigned long cp, char *out)
{
    if (cp == 0 || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff || (cp < 0x20 && cp != 9 && cp != 10 && cp != 13))
        return 0;
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xc0 | (cp >> 6)), out[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xe0 | (cp >> 12)), out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        out[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    out[0] = (char)(0xf0 | (cp >> 18)), out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3f)), out[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* An entity reference at s->p ('&') inside an attribute value, decoded onto *out. A reference is never shorter than
 * what it decodes to, so the arena (sized on the input) cannot overflow. */
static int xml_entity(TrkXmlState *s, char **out)
{
    const char *semi = NULL;
    for (const char *q = s->p + 1; q < s->end && q < s->p + 12; q++)
        if (*q == ';') {
            semi = q;
            break;
        }
    if (!semi || semi == s->p + 1)
        return xml_fail(s, s->line, "'&' must start an entity reference such as &amp;");
    const char *b = s->p + 1;
    size_t n = (size_t)(semi - b);
    static const struct {
        const char *name;
        char c;
    } predefined[] = {{"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}};
    for (size_t i = 0; i < sizeof predefined / sizeof predefined[0]; i++)
        if (strlen(predefined[i].name) == n && memcmp(b, predefined[i].name, n) == 0) {
            *(*out)++ = predefined[i].c;
            xml_skip(s, n + 2);
            return 0;
        }
    if (*b == '#') {
        int hex = n > 1 && b[1] == 'x';
        unsigned long cp = 0;
        size_t digits = 0;
        int bad = 0;
        for (const char *q = b + 1 + hex; q < semi && !bad; q++, digits++) {
            char c = (char)(*q | 32);
            int v = (*q >= '0' && *q <= '9') ? *q - '0' : (hex && c >= 'a' && c <= 'f') ? c - 'a' + 10 : -1;
            bad = v < 0 || cp > 0x10ffff; /* checked before the multiply, so cp never overflows */
            cp = cp * (hex ? 16u : 10u) + (unsigned long)(v < 0 ? 0 : v);
        }
        int len = digits && !bad ? xml_utf8(cp, *out) : 0;
        if (len == 0)
            return xml_fail(s, s->line, "bad character reference '%.*s'", (int)(n + 2), s->p);
        *out += len;
        xml_skip(s, n + 2);
        return 0;
    }
    /* an entity declared in a DTD this reader does not read: kept as written */
    memcpy(*out, s->p, n + 2);
    *out += n + 2;
    xml_skip(s, n + 2);
    return 0;
}

static int xml_attr_value(TrkXmlState *s, const char **value)
{
    char quote = s->p < s->end ? *s->p : '\0';
    if (quote != '"' && quote != '\'')
        return xml_fail(s, s->line, "expected a quoted attribute value");
    int line = s->line;
    xml_skip(s, 1);
    char *out = s->arena_at;
    *value = out;
    while (s->p < s->end && *s->p != quote) {
        if (*s->p == '<')
            return xml_fail(s, s->line, "'<' inside an attribute value");
        if (*s->p == '&') {
            if (xml_entity(s, &out) != 0)
                return -1;
            continue;
        }
        *out++ = *s->p;
        xml_skip(s, 1);
    }
    if (s->p >= s->end)
        return xml_fail(s, line, "unterminated attribute value");
    xml_skip(s, 1);
    *out++ = '\0';
    s->arena_at = out;
    return 0;
}

static int xml_push_attr(TrkXmlState *s, TrkXmlAttr a)
{
    TrkXmlDoc *d = s->doc;
    if (d->attr_count == s->attr_cap) {
        int cap = s->attr_cap ? s->attr_cap * 2 : 256;
        TrkXmlAttr *na = realloc(d->attrs, sizeof *na * (size_t)cap);
        if (!na)
            return xml_fail(s, s->line, "out of memory");
        d->attrs = na, s->attr_cap = cap;
    }
    d->attrs[d->attr_count++] = a;
    return 0;
}

static int xml_push_node(TrkXmlState *s, TrkXmlNode n)
{
    TrkXmlDoc *d = s->doc;
    if (d->node_count == s->node_cap) {
        int cap = s->node_cap ? s->node_cap * 2 : 256;
        TrkXmlNode *nn = realloc(d->nodes, sizeof *nn * (size_t)cap);
        if (!nn)
            return xml_fail(s, s->line, "out of memory");
        d->nodes = nn, s->node_cap = cap;
    }
    d->nodes[d->node_count++] = n;
    return 0;
}

/* A start tag, s->p just past '<': its attributes, then either '/>' or '>' (which opens it). */
static int xml_start_tag(TrkXmlState *s)
{
    int line = s->line;
    if (s->root_done)
        return xml_fail(s, line, "content after the root element");
    if (s->depth == TRK_XML_MAX_DEPTH)
        return xml_fail(s, line, "elements nested deeper than %d", TRK_XML_MAX_DEPTH);
    TrkXmlNode node = {xml_name(s), s->depth ? s->stack[s->depth - 1] : -1, line, s->doc->attr_count, 0};
    int self = s->doc->node_count;
    if (xml_push_node(s, node) != 0)
        return -1;
    for (;;) {
        int spaced = s->p < s->end && xml_is_space(*s->p);
        xml_skip_space(s);
        if (s->p >= s->end)
            return xml_fail(s, line, "unterminated tag <%.32s", node.tag);
        if (*s->p == '>' || xml_starts(s, "/>"))
            break;
        TrkXmlAttr a = {NULL, NULL, s->line};
        if (!spaced || (a.name = xml_name(s)) == NULL)
            return xml_fail(s, s->line, "expected an attribute name or '>' in <%.32s>", node.tag);
        for (int i = node.first_attr; i < s->doc->attr_count; i++)
            if (strcmp(s->doc->attrs[i].name, a.name) == 0)
                return xml_fail(s, s->line, "duplicate attribute '%.32s' in <%.32s>", a.name, node.tag);
        xml_skip_space(s);
        if (s->p >= s->end || *s->p != '=')
            return xml_fail(s, s->line, "expected '=' after attribute '%.32s'", a.name);
        xml_skip(s, 1);
        xml_skip_space(s);
        if (xml_attr_value(s, &a.value) != 0 || xml_push_attr(s, a) != 0)
            return -1;
        s->doc->nodes[self].attr_count++;
    }
    if (*s->p == '/') {
        xml_skip(s, 2);
        s->root_done = s->depth == 0;
        return 0;
    }
    xml_skip(s, 1);
    s->stack[s->depth++] = self;
    return 0;
}

static int xml_end_tag(TrkXmlState *s)
{
    int line = s->line;
    const char *name = xml_name(s);
    xml_skip_space(s);
    if (!name || s->p >= s->end || *s->p != '>')
        return xml_fail(s, line, "bad end tag");
    xml_skip(s, 1);
    if (s->depth == 0)
        return xml_fail(s, line, "unexpected </%.32s>", name);
    const char *open = s->doc->nodes[s->stack[s->depth - 1]].tag;
    if (strcmp(open, name) != 0)
        return xml_fail(s, line, "expected </%.32s> (opened on line %d), got </%.32s>", open,
                        s->doc->nodes[s->stack[s->depth - 1]].line, name);
    s->depth--;
    s->root_done = s->depth == 0;
    return 0;
}

/* Markup at s->p ('<'). */
static int xml_markup(TrkXmlState *s)
{
    int line = s->line;
    if (xml_starts(s, "<!--"))
        return xml_skip_past(s, "-->", "comment");
    if (xml_starts(s, "<?"))
        return xml_skip_past(s, "?>", "processing instruction");
    if (xml_starts(s, "<![CDATA["))
        return xml_skip_past(s, "]]>", "CDATA section");
    if (xml_starts(s, "<!DOCTYPE")) {
        if (s->seen_doctype || s->depth > 0 || s->root_done || s->doc->node_count > 0)
            return xml_fail(s, line, "DOCTYPE only once, before the root element");
        s->seen_doctype = 1;
        return xml_skip_doctype(s);
    }
    if (xml_starts(s, "<!"))
        return xml_fail(s, line, "unsupported markup '<!'");
    xml_skip(s, 1);
    if (s->p < s->end && *s->p == '/') {
        xml_skip(s, 1);
        return xml_end_tag(s);
    }
    if (s->p >= s->end || !xml_is_name_char((unsigned char)*s->p, 1))
        return xml_fail(s, line, "expected a tag name after '<'");
    return xml_start_tag(s);
}

int trk_xml_parse(const char *text, TrkXmlDoc *doc, char *msg, size_t msg_len, int *line)
{
    memset(doc, 0, sizeof *doc);
    size_t len = strlen(text);
    TrkXmlState s;
    memset(&s, 0, sizeof s);
    s.p = text, s.end = text + len, s.line = 1, s.doc = doc, s.msg = msg, s.msg_len = msg_len;
    /* every string is a piece of the input plus a NUL, and no two pieces overlap */
    doc->arena = malloc(2 * len + 2);
    if (!doc->arena) {
        *line = 0;
        snprintf(msg, msg_len, "out of memory");
        return -1;
    }
    s.arena_at = doc->arena;
    int r = 0;
    while (r == 0 && s.p < s.end) {
        if (*s.p == '<') {
            r = xml_markup(&s);
        } else if (s.depth == 0 && !xml_is_space(*s.p)) {
            r = xml_fail(&s, s.line, s.root_done ? "content after the root element" : "text before the root element");
        } else {
            xml_skip(&s, 1); /* character data and entity references in it are not read */
        }
    }
    if (r == 0 && s.depth > 0)
        r = xml_fail(&s, doc->nodes[s.stack[s.depth - 1]].line, "<%.32s> is never closed",
                     doc->nodes[s.stack[s.depth - 1]].tag);
    if (r == 0 && doc->node_count == 0)
        r = xml_fail(&s, 0, "no root element");
    if (r != 0) {
        *line = s.err_line;
        trk_xml_free(doc);
    }
    return r;
}

void trk_xml_free(TrkXmlDoc *doc)
{
    free(doc->nodes), free(doc->attrs), free(doc->arena);
    memset(doc, 0, sizeof *doc);
}

const char *trk_xml_attr(const TrkXmlDoc *doc, int node, const char *name, int *line)
{
    const TrkXmlNode *n = &doc->nodes[node];
    for (int i = n->first_attr; i < n->first_attr + n->attr_count; i++)
        if (strcmp(doc->attrs[i].name, name) == 0) {
            if (line)
                *line = doc->attrs[i].line;
            return doc->attrs[i].value;
        }
    return NULL;
}
