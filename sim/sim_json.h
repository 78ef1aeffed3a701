/* sim_json.h: a small strict JSON reader and string writer, for racesim's own JSON-lines records.
 *
 * Strict RFC 8259 syntax (no comments, no trailing commas, no NaN), duplicate keys rejected, nesting limited. The
 * parsed tree lives in a SimJsonDoc and dies with it. Errors say what is wrong and at which column, without a path:
 * the caller knows the file and line. No globals, no printing.
 */
#ifndef SIM_JSON_H
#define SIM_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define SIM_JSON_MAX_DEPTH 32
#define SIM_JSON_MAX_MEMBERS 256 /* per object: keeps the duplicate-key check cheap on hostile input */

typedef enum SimJsonType {
    SIM_JSON_NULL = 0,
    SIM_JSON_BOOL,
    SIM_JSON_NUMBER,
    SIM_JSON_STRING,
    SIM_JSON_ARRAY,
    SIM_JSON_OBJECT
} SimJsonType;

typedef struct SimJson SimJson;
struct SimJson {
    SimJsonType type;
    bool boolean;
    double number;      /* strtod of the token: exact for numbers written with "%.17g" */
    const char *token;  /* numbers: the literal text; strings: the decoded text (NUL-terminated) */
    size_t len;         /* strings: decoded length in bytes (a string may hold "\u0000") */
    const char *key;    /* members of an object: the key; NULL otherwise */
    SimJson *child;     /* arrays and objects: the first element or member */
    SimJson *next;      /* the next sibling */
    int count;          /* arrays and objects: how many children */
};

typedef struct SimJsonBlock SimJsonBlock;
typedef struct SimJsonDoc {
    SimJson *root;
    char *strings;        /* decoded strings and number tokens */
    SimJsonBlock *blocks; /* node storage */
} SimJsonDoc;

/* Parses text[0..len) as one JSON value (surrounding white space allowed). Returns 0 and sets doc->root, or nonzero
 * with err like "column 17: expected ':' after an object key". Always call sim_json_free afterwards. */
int sim_json_parse(const char *text, size_t len, SimJsonDoc *doc, char *err, size_t err_len);
void sim_json_free(SimJsonDoc *doc);

/* The member `key` of an object, or NULL. */
const SimJson *sim_json_get(const SimJson *object, const char *key);
const char *sim_json_type_name(SimJsonType type);

/* Writes s as a JSON string literal (quotes and escapes). */
void sim_json_write_string(FILE *out, const char *s);

#endif
