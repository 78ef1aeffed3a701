/* trk_xml.h: a small, strict XML reader for the subset track files use (private to the track module).
 *
 * Reads elements, attributes, comments, processing instructions, CDATA and one DOCTYPE before the root (skipped with
 * its internal subset). Character data is ignored, and so are entity references in it (TORCS files pull shared
 * sections in with `&default-surfaces;`). In attribute values the five predefined entities and character references
 * are decoded and an unknown entity is kept as written. Mismatched or unclosed tags, duplicate attributes and a
 * nesting deeper than TRK_XML_MAX_DEPTH are errors. */
#ifndef TRK_XML_H
#define TRK_XML_H

#include <stddef.h>

#define TRK_XML_MAX_DEPTH 64

typedef struct TrkXmlAttr {
    const char *name;
    const char *value; /* decoded */
    int line;
} TrkXmlAttr;

typedef struct TrkXmlNode {
    const char *tag;
    int parent; /* index of the enclosing element, -1 for the root */
    int line;   /* of the '<' that opens it */
    int first_attr, attr_count;
} TrkXmlNode;

/* Elements in document order (node 0 is the root); strings live in `arena`. */
typedef struct TrkXmlDoc {
    TrkXmlNode *nodes;
    int node_count;
    TrkXmlAttr *attrs;
    int attr_count;
    char *arena;
} TrkXmlDoc;

/* Parses text. Returns 0, or -1 with "what is wrong" in msg and its line in *line (the caller adds the path). */
int trk_xml_parse(const char *text, TrkXmlDoc *doc, char *msg, size_t msg_len, int *line);
void trk_xml_free(TrkXmlDoc *doc);

/* The value of a node's attribute, or NULL (and its line in *line when not NULL). */
const char *trk_xml_attr(const TrkXmlDoc *doc, int node, const char *name, int *line);

#endif
