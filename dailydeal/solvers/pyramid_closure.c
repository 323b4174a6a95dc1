/* dailydeal.solvers.pyramid_closure, in C: which pyramid cards must leave before which,
 * and the recycles a position needs (passes_needed).
 *
 * pyramid_closure.py is the reference (its docstrings say what each function does); this
 * module does the same, step for step, with the same answers. What differs is the cost:
 * compiled by mypyc, precedence() keeps its 28 masks as boxed ints in a list and rescans
 * them until nothing changes, about 23,000 instructions a call; here they are 28 words on
 * the stack. passes_needed() builds its chain, reads its windows and the usable values
 * here too, in words and arrays on the stack: one call from the compiled bounds, with no
 * Python object made but the answer.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define SIZE 28     /* places of the pyramid */
#define ROWS 7
#define KING 13
#define PAIR_SUM 13
#define TALON 24    /* talon positions at most (52 - SIZE) */
#define BIG (1 << 20) /* "impossible": pyramid_closure.BIG */

static uint32_t blockers[SIZE]; /* pyramid_closure.blockers(), filled at import */
static uint32_t behind[SIZE];   /* pyramid_closure.behind(), filled at import */

static void fill_blockers(void)
{
    /* place i of row r (r * (r + 1) / 2 + p) is covered by places first(r + 1) + p and
     * first(r + 1) + p + 1; from the bottom row up, as blockers() does */
    for (int i = SIZE - 1; i >= 0; i--) {
        int r = 0;
        while ((r + 1) * (r + 2) / 2 <= i)
            r++;
        blockers[i] = 0;
        if (r == ROWS - 1)
            continue;
        int p = i - r * (r + 1) / 2;
        int c = (r + 1) * (r + 2) / 2 + p;
        blockers[i] |= (1u << c) | blockers[c] | (1u << (c + 1)) | blockers[c + 1];
    }
    for (int y = 0; y < SIZE; y++) {
        behind[y] = 0;
        for (int x = 0; x < SIZE; x++)
            if (blockers[x] >> y & 1)
                behind[y] |= 1u << x;
    }
}

static inline int low_index(uint32_t x) { return __builtin_ctz(x); }

/* popcount without a call (__builtin_popcount is a libgcc call unless -mpopcnt) */
static inline int bits_in(uint32_t x)
{
    x = x - (x >> 1 & 0x55555555u);
    x = (x & 0x33333333u) + (x >> 2 & 0x33333333u);
    return (int)(((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u >> 24);
}

/* values (28 bytes of 1 to 13) from a bytes object; -1 with an exception set otherwise */
static int read_values(PyObject *obj, uint8_t *values)
{
    if (!PyBytes_Check(obj) || PyBytes_GET_SIZE(obj) < SIZE) {
        PyErr_SetString(PyExc_TypeError, "values: bytes of the 28 places' values");
        return -1;
    }
    const uint8_t *b = (const uint8_t *)PyBytes_AS_STRING(obj);
    for (int i = 0; i < SIZE; i++) {
        if (b[i] < 1 || b[i] > KING) {
            PyErr_SetString(PyExc_ValueError, "values: each from 1 to 13");
            return -1;
        }
        values[i] = b[i];
    }
    return 0;
}

/* the talon's values (at most 24 bytes of 1 to 13) from a bytes object, their count in
 * *n; -1 with an exception set otherwise */
static int read_tvalues(PyObject *obj, uint8_t *tvalues, int *n)
{
    if (!PyBytes_Check(obj) || PyBytes_GET_SIZE(obj) > TALON) {
        PyErr_SetString(PyExc_TypeError, "tvalues: bytes of the talon's values, 24 at most");
        return -1;
    }
    const uint8_t *b = (const uint8_t *)PyBytes_AS_STRING(obj);
    *n = (int)PyBytes_GET_SIZE(obj);
    for (int j = 0; j < *n; j++) {
        if (b[j] < 1 || b[j] > KING) {
            PyErr_SetString(PyExc_ValueError, "tvalues: each from 1 to 13");
            return -1;
        }
        tvalues[j] = b[j];
    }
    return 0;
}

/* an int argument 0 <= x < 2**bits */
static int read_bits(PyObject *obj, int bits, uint32_t *out)
{
    unsigned long long x = PyLong_AsUnsignedLongLong(obj);
    if (x == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    if (bits < 64 && x >> bits) {
        PyErr_Format(PyExc_OverflowError, "a mask of at most %d bits", bits);
        return -1;
    }
    *out = (uint32_t)x;
    return 0;
}

/* place_bits[v]: the places of value v (v from 1 to 13), as bits */
static void fill_place_bits(const uint8_t *values, uint32_t *place_bits)
{
    for (int v = 0; v <= KING; v++)
        place_bits[v] = 0;
    for (int i = 0; i < SIZE; i++)
        place_bits[values[i]] |= 1u << i;
}

/* precedence() into pre[SIZE]; 0, or 1 when some card cannot leave at all */
static int closure(const uint8_t *values, const uint32_t *place_bits, uint32_t mask,
                   uint32_t vals, uint32_t inside, uint32_t ivals, uint32_t *pre)
{
    int places[SIZE], only[SIZE];
    int n = 0, k = 0;
    for (int i = 0; i < SIZE; i++)
        pre[i] = 0;
    for (int i = SIZE - 1; i >= 0; i--) {
        if (!(mask >> i & 1))
            continue;
        places[n++] = i;
        pre[i] = blockers[i] & mask;
        uint32_t v = values[i];
        uint32_t pool = inside >> i & 1 ? ivals : vals;
        if (v != KING && !(pool >> (PAIR_SUM - v) & 1))
            only[k++] = i;
    }
    int changed = k > 0;
    while (changed) {
        changed = 0;
        for (int a = 0; a < k; a++) {
            int c = only[a];
            uint32_t cand = mask & place_bits[PAIR_SUM - values[c]];
            uint32_t meet = mask, prec = pre[c];
            int some = 0;
            while (cand) {
                uint32_t x = cand & -cand;
                cand ^= x;
                uint32_t prej = pre[low_index(x)];
                if (prec & x || prej >> c & 1)
                    continue;
                some = 1;
                meet &= prej;
            }
            if (!some)
                return 1;
            meet &= ~(1u << c);
            if (meet & ~prec) {
                pre[c] = prec | meet;
                changed = 1;
            }
        }
        for (int a = 0; a < n; a++) {
            int i = places[a];
            uint32_t t = pre[i], closed = t;
            while (t) {
                uint32_t x = t & -t;
                t ^= x;
                closed |= pre[low_index(x)];
            }
            if (closed != pre[i]) {
                pre[i] = closed;
                changed = 1;
            }
            if (closed >> i & 1)
                return 1;
        }
    }
    return 0;
}

/* talon_bits(): vb[w], the talon positions of value w, as bits */
static void fill_talon_bits(const uint8_t *tvalues, int n, uint32_t *vb)
{
    for (int w = 0; w <= KING; w++)
        vb[w] = 0;
    for (int j = 0; j < n; j++)
        vb[tvalues[j]] |= 1u << j;
}

/* the values (as bits) of the talon cards at the positions ``set`` */
static uint32_t values_of(const uint32_t *vb, uint32_t set)
{
    uint32_t got = 0;
    for (int w = 1; w <= KING; w++)
        if (set & vb[w])
            got |= 1u << w;
    return got;
}

static int partner(const uint32_t *pre, uint32_t cand, int c)
{
    uint32_t prec = pre[c];
    while (cand) {
        uint32_t x = cand & -cand;
        cand ^= x;
        if (!(prec & x) && !(pre[low_index(x)] >> c & 1))
            return 1;
    }
    return 0;
}

static int read_args(PyObject *const *args, Py_ssize_t nargs, uint8_t *values, uint32_t *mask,
                     uint32_t *vals, uint32_t *inside, uint32_t *ivals)
{
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "expected (values, mask, vals, inside, ivals)");
        return -1;
    }
    if (read_values(args[0], values) < 0 || read_bits(args[1], SIZE, mask) < 0 ||
        read_bits(args[2], 32, vals) < 0 || read_bits(args[3], SIZE, inside) < 0 ||
        read_bits(args[4], 32, ivals) < 0)
        return -1;
    return 0;
}

/* the SIZE masks of ``pre`` (or of ``blockers``) as a list of ints */
static PyObject *pre_list(const uint32_t *pre)
{
    PyObject *out = PyList_New(SIZE);
    if (out == NULL)
        return NULL;
    for (int i = 0; i < SIZE; i++) {
        PyObject *x = PyLong_FromUnsignedLong(pre[i]);
        if (x == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, x);
    }
    return out;
}

/* the entry indices of a bit set, in increasing order, as a list */
static PyObject *index_list(uint32_t bits)
{
    PyObject *out = PyList_New(bits_in(bits));
    if (out == NULL)
        return NULL;
    for (Py_ssize_t n = 0; bits; n++) {
        uint32_t x = bits & -bits;
        bits ^= x;
        PyObject *k = PyLong_FromLong(low_index(x));
        if (k == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, n, k);
    }
    return out;
}

static PyObject *py_precedence(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    uint8_t values[SIZE];
    uint32_t mask, vals, inside, ivals, pre[SIZE], place_bits[KING + 1];
    if (read_args(args, nargs, values, &mask, &vals, &inside, &ivals) < 0)
        return NULL;
    fill_place_bits(values, place_bits);
    if (closure(values, place_bits, mask, vals, inside, ivals, pre))
        Py_RETURN_NONE;
    return pre_list(pre);
}

/* window_takes(): -1, or the counts of what the cards take, 3 bits a value */
static long long takes_of(const uint8_t *values, const uint32_t *place_bits, uint32_t mask,
                          uint32_t vals, uint32_t inside, uint32_t ivals)
{
    uint32_t pre[SIZE];
    if (closure(values, place_bits, mask, vals, inside, ivals, pre))
        return -1;
    long long takes = 0;
    uint32_t t = inside;
    while (t) {
        uint32_t x = t & -t;
        t ^= x;
        int c = low_index(x);
        int v = values[c];
        if (v == KING)
            continue;
        if (!partner(pre, mask & place_bits[PAIR_SUM - v], c))
            takes += 1LL << 3 * (PAIR_SUM - v - 1);
    }
    return takes;
}

static PyObject *py_window_takes(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    uint8_t values[SIZE];
    uint32_t mask, vals, inside, ivals, place_bits[KING + 1];
    if (read_args(args, nargs, values, &mask, &vals, &inside, &ivals) < 0)
        return NULL;
    fill_place_bits(values, place_bits);
    return PyLong_FromLongLong(takes_of(values, place_bits, mask, vals, inside, ivals));
}

/* forced_chain()'s entries: entry e is the card at place[e], of talon partner value w[e];
 * before[e] and above[e] its nearest and all earlier entries that must leave before it,
 * as bits of entry indices (the card's own cards that must leave first: pre[place[e]]) */
typedef struct {
    int n;
    int w[SIZE], place[SIZE];
    uint32_t before[SIZE], above[SIZE];
} chain_t;

/* forced_chain() into *chain and pre[SIZE]; 0, or 1 when the position is lost */
static int chain_of(const uint8_t *values, const uint32_t *place_bits, uint32_t mask,
                    uint32_t vals, uint32_t *pre, chain_t *chain)
{
    if (closure(values, place_bits, mask, vals, 0, 0, pre))
        return 1;
    /* the places from the highest, stably sorted by how many cards must leave first */
    int places[SIZE], counts[SIZE], n = 0;
    for (int i = SIZE - 1; i >= 0; i--) {
        if (!(mask >> i & 1))
            continue;
        int count = bits_in(pre[i]), at = n++;
        while (at > 0 && counts[at - 1] > count) {
            places[at] = places[at - 1];
            counts[at] = counts[at - 1];
            at--;
        }
        places[at] = i;
        counts[at] = count;
    }
    int k = 0;
    for (int a = 0; a < n; a++) {
        int i = places[a];
        int v = values[i];
        if (v == KING || partner(pre, mask & place_bits[PAIR_SUM - v], i))
            continue;
        uint32_t above = 0, covered = 0;
        for (int e = 0; e < k; e++)
            if (pre[i] >> chain->place[e] & 1) {
                above |= 1u << e;
                covered |= chain->before[e] | chain->above[e];
            }
        chain->w[k] = PAIR_SUM - v;
        chain->place[k] = i;
        chain->before[k] = above & ~covered;
        chain->above[k] = above;
        k++;
    }
    chain->n = k;
    return 0;
}

static PyObject *py_forced_chain(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    uint8_t values[SIZE];
    uint32_t mask, vals, pre[SIZE], place_bits[KING + 1];
    chain_t chain;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "expected (values, mask, vals)");
        return NULL;
    }
    if (read_values(args[0], values) < 0 || read_bits(args[1], SIZE, &mask) < 0 ||
        read_bits(args[2], 32, &vals) < 0)
        return NULL;
    fill_place_bits(values, place_bits);
    if (chain_of(values, place_bits, mask, vals, pre, &chain))
        Py_RETURN_NONE;
    PyObject *entries = PyList_New(chain.n);
    if (entries == NULL)
        return NULL;
    for (int e = 0; e < chain.n; e++) {
        PyObject *before = index_list(chain.before[e]), *all = index_list(chain.above[e]);
        PyObject *entry = before == NULL || all == NULL ? NULL
            : Py_BuildValue("(iOiOk)", chain.w[e], before, chain.place[e], all,
                            (unsigned long)pre[chain.place[e]]);
        Py_XDECREF(before);
        Py_XDECREF(all);
        if (entry == NULL) {
            Py_DECREF(entries);
            return NULL;
        }
        PyList_SET_ITEM(entries, e, entry);
    }
    PyObject *pres = pre_list(pre);
    if (pres == NULL) {
        Py_DECREF(entries);
        return NULL;
    }
    return Py_BuildValue("(NN)", entries, pres);
}

/* usable_values() */
static uint32_t usable_of(const uint8_t *values, const uint32_t *place_bits, uint32_t mask,
                          uint32_t pool)
{
    uint32_t gone = ~mask; /* places that can leave (or are gone) */
    int changed = 1;
    while (changed) {
        changed = 0;
        uint32_t rest = mask & ~gone;
        while (rest) {
            int i = 31 - __builtin_clz(rest);
            rest ^= 1u << i;
            uint32_t bi = blockers[i];
            if (bi & ~gone)
                continue;
            int v = values[i];
            int ok = v == KING || (pool >> (PAIR_SUM - v) & 1);
            if (!ok) {
                uint32_t cand = mask & place_bits[PAIR_SUM - v] & ~bi;
                while (cand) {
                    int j = 31 - __builtin_clz(cand);
                    cand ^= 1u << j;
                    uint32_t bj = blockers[j];
                    if (!(bj & ~gone) && !(bj >> i & 1)) {
                        ok = 1;
                        break;
                    }
                }
            }
            if (ok) {
                gone |= 1u << i;
                changed = 1;
            }
        }
    }
    uint32_t found = 1u << KING;
    for (uint32_t rest = mask; rest;) {
        int i = 31 - __builtin_clz(rest);
        rest ^= 1u << i;
        if (!(blockers[i] & ~gone) && values[i] != KING)
            found |= 1u << (PAIR_SUM - values[i]);
    }
    return found;
}

static PyObject *py_usable_values(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    uint8_t values[SIZE];
    uint32_t mask, pool, place_bits[KING + 1];
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "expected (values, mask, pool)");
        return NULL;
    }
    if (read_values(args[0], values) < 0 || read_bits(args[1], SIZE, &mask) < 0 ||
        read_bits(args[2], 32, &pool) < 0)
        return NULL;
    fill_place_bits(values, place_bits);
    return PyLong_FromUnsignedLong(usable_of(values, place_bits, mask, pool));
}

static inline uint32_t upto(int c) { return (uint32_t)((2ULL << c) - 1); } /* bits 0..c */

/* ------------------------------------------------------------------------------------
 * PassCounter: passes_needed() of one deal, and its tables (see the reference class).
 *
 * The tables are open-addressed (linear probing, a power of two of slots, at most half
 * full), keyed as the reference's dicts are: ``key`` = mask | chain values << SIZE; a
 * window by that key and the window's values | its cards << 14. A chain lives in an
 * arena of words: [n (or LOST), usable positions known, usable positions, pre[SIZE],
 * then w | place << 8, before, above for each entry].
 */
#define LOST 0xFFFFFFFFu
#define CHAIN_HEAD (3 + SIZE)
/* the window part of a key in the windows' table that holds usable_values() of (mask,
 * pool) instead: above every window's (42 bits) */
#define USABLE_WKEY (1ull << 63)

/* a slot of either table: the chains' (wkey 0, value the chain's offset in the arena) and
 * the windows' (wkey the window's part or USABLE_WKEY, value what it takes or the usable
 * values) */
typedef struct {
    uint64_t key, wkey; /* key + 1 (0: empty), and the second part */
    long long value;
} slot_t;

typedef struct {
    slot_t *slots;
    size_t cap, used;
} table_t;

typedef struct {
    PyObject_HEAD
    uint8_t values[SIZE], tvalues[TALON];
    int n;
    uint32_t pb[KING + 1], vb[KING + 1];
    table_t chains, windows;
    uint32_t *arena;
    size_t arena_cap, arena_used;
} counter_t;

static inline size_t slot_of(uint64_t key, uint64_t wkey, size_t cap)
{
    uint64_t h = (key ^ wkey * 0xC2B2AE3D27D4EB4Full) * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 32) & (cap - 1);
}

static void table_free(table_t *t)
{
    PyMem_Free(t->slots);
    t->slots = NULL;
    t->cap = t->used = 0;
}

static void counter_clear(counter_t *pc)
{
    table_free(&pc->chains);
    table_free(&pc->windows);
    PyMem_Free(pc->arena);
    pc->arena = NULL;
    pc->arena_cap = pc->arena_used = 0;
}

/* The slot of (key, wkey) in ``t`` (key + 1): the one that holds it, or the empty one it
 * goes in (key 0: the caller fills it with table_put); the table grows first so that one
 * more fits at most half full. NULL (MemoryError set) when there is no room. */
static slot_t *table_slot(table_t *t, uint64_t key, uint64_t wkey)
{
    if ((t->used + 1) * 2 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        slot_t *slots = PyMem_Calloc(cap, sizeof(slot_t));
        if (slots == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        for (size_t i = 0; i < t->cap; i++) {
            slot_t *old = &t->slots[i];
            if (!old->key)
                continue;
            size_t at = slot_of(old->key, old->wkey, cap);
            while (slots[at].key)
                at = (at + 1) & (cap - 1);
            slots[at] = *old;
        }
        PyMem_Free(t->slots);
        t->slots = slots;
        t->cap = cap;
    }
    size_t at = slot_of(key, wkey, t->cap);
    while (t->slots[at].key && !(t->slots[at].key == key && t->slots[at].wkey == wkey))
        at = (at + 1) & (t->cap - 1);
    return &t->slots[at];
}

/* fill the empty ``slot`` table_slot gave for (key, wkey) */
static inline long long table_put(table_t *t, slot_t *slot, uint64_t key, uint64_t wkey,
                                  long long value)
{
    slot->key = key;
    slot->wkey = wkey;
    slot->value = value;
    t->used++;
    return value;
}

/* ``words`` more words at the arena's end; NULL (MemoryError set) when there is no room */
static uint32_t *arena_take(counter_t *pc, size_t words)
{
    if (pc->arena_used + words > pc->arena_cap) {
        size_t cap = pc->arena_cap ? pc->arena_cap * 2 : 16384;
        while (cap < pc->arena_used + words)
            cap *= 2;
        if (cap > UINT32_MAX) {
            PyErr_NoMemory();
            return NULL;
        }
        uint32_t *arena = PyMem_Realloc(pc->arena, cap * sizeof(uint32_t));
        if (arena == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        pc->arena = arena;
        pc->arena_cap = cap;
    }
    uint32_t *got = pc->arena + pc->arena_used;
    pc->arena_used += words;
    return got;
}

/* the talon values the cards of ``mask`` pair with (kings aside) */
static inline uint32_t wanted_of(const counter_t *pc, uint32_t mask)
{
    uint32_t wanted = 0;
    for (int v = 1; v < KING; v++)
        if (mask & pc->pb[v])
            wanted |= 1u << (PAIR_SUM - v);
    return wanted;
}

/* PassCounter.key(): mask | the values of ``vals`` the mask's cards pair with << SIZE */
static inline uint64_t table_key(const counter_t *pc, uint32_t mask, uint32_t vals)
{
    return (uint64_t)mask | (uint64_t)(vals & wanted_of(pc, mask)) << SIZE;
}

/* the chain of (mask, vals) under ``key``, from the table or made; its offset in the
 * arena, or -1 with an exception set */
static long long chain_at(counter_t *pc, uint64_t key, uint32_t mask, uint32_t vals)
{
    slot_t *slot = table_slot(&pc->chains, key + 1, 0);
    if (slot == NULL)
        return -1;
    if (slot->key)
        return slot->value;
    uint32_t pre[SIZE];
    chain_t chain;
    int lost = chain_of(pc->values, pc->pb, mask, vals, pre, &chain);
    uint32_t *rec = arena_take(pc, lost ? 1 : CHAIN_HEAD + 3 * (size_t)chain.n);
    if (rec == NULL)
        return -1;
    long long offset = rec - pc->arena;
    if (lost) {
        rec[0] = LOST;
    } else {
        rec[0] = (uint32_t)chain.n;
        rec[1] = 0;
        rec[2] = 0;
        memcpy(rec + 3, pre, sizeof pre);
        for (int e = 0; e < chain.n; e++) {
            rec[CHAIN_HEAD + 3 * e] = (uint32_t)(chain.w[e] | chain.place[e] << 8);
            rec[CHAIN_HEAD + 3 * e + 1] = chain.before[e];
            rec[CHAIN_HEAD + 3 * e + 2] = chain.above[e];
        }
    }
    return table_put(&pc->chains, slot, key + 1, 0, offset);
}

/* PassCounter.usable_values() through the windows' table (USABLE_WKEY); -1 with an
 * exception set */
static long long counter_usable(counter_t *pc, uint32_t mask, uint32_t pool, uint32_t wanted)
{
    uint64_t key = ((uint64_t)mask | (uint64_t)(pool & wanted) << SIZE) + 1;
    slot_t *slot = table_slot(&pc->windows, key, USABLE_WKEY);
    if (slot == NULL)
        return -1;
    if (slot->key)
        return slot->value;
    return table_put(&pc->windows, slot, key, USABLE_WKEY,
                     usable_of(pc->values, pc->pb, mask, pool));
}

/* PassCounter.reachable_waste(); -1 with an exception set */
static long long counter_reachable(counter_t *pc, uint32_t mask, uint32_t low, uint32_t pool)
{
    uint32_t wanted = wanted_of(pc, mask);
    long long usable = counter_usable(pc, mask, pool, wanted);
    if (usable < 0)
        return -1;
    uint64_t used = 0; /* 3 bits per value */
    for (uint32_t t = low; t;) {
        int j = 31 - __builtin_clz(t);
        int w = pc->tvalues[j];
        int cap = w == KING ? SIZE : bits_in(mask & pc->pb[PAIR_SUM - w]);
        if ((int)(used >> (3 * w) & 7) == cap || !(usable >> w & 1))
            return low >> (j + 1) << (j + 1);
        used += 1ull << (3 * w);
        t ^= 1u << j;
        if (!(pool >> w & 1)) {
            pool |= 1u << w;
            usable = counter_usable(pc, mask, pool, wanted);
            if (usable < 0)
                return -1;
        }
    }
    return low;
}

/* PassCounter.staying(); -1 with an exception set */
static long long counter_staying(counter_t *pc, uint32_t mask, uint32_t tal, int last)
{
    const uint32_t *vb = pc->vb;
    uint32_t upto_last = last >= 0 ? tal & upto(last) : 0;
    long long usable = counter_usable(pc, mask, values_of(vb, tal), wanted_of(pc, mask));
    if (usable < 0)
        return -1;
    uint32_t bad = upto_last;
    for (int u = 1; u <= KING; u++)
        if (usable >> u & 1)
            bad &= ~vb[u];
    uint32_t left = upto_last & ~bad;
    long long total = bits_in(bad);
    for (int u = 1; u < KING; u++) {
        int extra = bits_in(left & vb[u]) - bits_in(mask & pc->pb[PAIR_SUM - u]);
        if (extra > 0)
            total += extra;
    }
    return total;
}

/* PassCounter.window_blocked(): 1, 0, or -1 with an exception set; ``wanted``: the
 * mask's (wanted_of) */
static int counter_blocked(counter_t *pc, uint32_t mask, uint32_t vals, uint32_t wanted,
                           uint32_t inside, uint32_t above)
{
    uint32_t ivals = values_of(pc->vb, above);
    uint64_t key = ((uint64_t)mask | (uint64_t)(vals & wanted) << SIZE) + 1;
    uint64_t wkey = (ivals & wanted) | (uint64_t)inside << 14;
    slot_t *slot = table_slot(&pc->windows, key, wkey);
    if (slot == NULL)
        return -1;
    long long takes = slot->key ? slot->value
        : table_put(&pc->windows, slot, key, wkey,
                    takes_of(pc->values, pc->pb, mask, vals, inside, ivals));
    if (takes < 0)
        return 1;
    for (int w = 1; w < KING; w++)
        if ((takes >> 3 * (w - 1) & 7) > bits_in(above & pc->vb[w]))
            return 1;
    return 0;
}

/* PassCounter.passes_needed() into *need, *far; -1 with an exception set */
static int counter_passes(counter_t *pc, uint32_t mask, uint32_t tal, int p, long long most,
                          long long *need, long long *far)
{
    const uint32_t *vb = pc->vb, *pb = pc->pb;
    uint32_t vals = values_of(vb, tal), wanted = wanted_of(pc, mask);
    uint64_t key = (uint64_t)mask | (uint64_t)(vals & wanted) << SIZE;
    long long offset = chain_at(pc, key, mask, vals);
    if (offset < 0)
        return -1;
    /* the chain's record, read in place: nothing below adds to the arena (a window only
     * to its own table), so it does not move */
    uint32_t *rec = pc->arena + offset;
    *need = BIG;
    *far = -1;
    if (rec[0] == LOST)
        return 0;
    int count = (int)rec[0];
    *need = 0;
    if (count == 0)
        return 0;
    const uint32_t *pre = rec + 3, *entries = rec + CHAIN_HEAD;
    int places[SIZE];
    for (int e = 0; e < count; e++)
        places[e] = (int)(entries[3 * e] >> 8);
    int have_bad = 0; /* bad: talon cards that never leave, looked up at the first gap */
    uint32_t bad = 0, kings = vb[KING];
    int takers = bits_in(mask & ~pb[KING]);
    long long start = p, latest = start, times[SIZE];
    for (int e = 0; e < count; e++) {
        int w = (int)(entries[3 * e] & 255);
        long long t0 = start;
        for (uint32_t b = entries[3 * e + 1]; b; b &= b - 1)
            if (times[low_index(b)] > t0)
                t0 = times[low_index(b)];
        uint32_t wb = tal & vb[w];
        if (!wb) {
            *need = BIG;
            return 0;
        }
        int c0 = (int)(t0 & 31) - 1;
        long long t = -1;
        uint32_t below = c0 >= 0 ? wb & upto(c0) : 0;
        if (below) {
            int j = 31 - __builtin_clz(below);
            if (j == c0) {
                t = t0;
            } else {
                uint32_t gap = tal & upto(c0) & ~upto(j);
                if (!have_bad) {
                    if (!rec[1]) {
                        uint32_t usable = usable_of(pc->values, pb, mask, vals), ok = 0;
                        for (int u = 1; u <= KING; u++)
                            if (usable >> u & 1)
                                ok |= vb[u];
                        rec[1] = 1;
                        rec[2] = ok;
                    }
                    bad = tal & ~rec[2];
                    have_bad = 1;
                }
                if (!(gap & bad) && bits_in(gap & ~kings) < takers) {
                    /* the chain cards late at every cursor up to the next draw of a card
                     * of value w, and the card itself */
                    uint32_t late = 1u << places[e];
                    uint32_t ahead = wb >> (c0 + 1);
                    long long end = ahead ? (t0 >> 5) << 5 | (low_index(ahead) + c0 + 2)
                                          : ((t0 >> 5) + 1) << 5;
                    for (int k = 0; k < e; k++)
                        if (times[k] >= end)
                            late |= 1u << places[k];
                    t = t0;
                    uint32_t out = late; /* and those they block: no partner by then */
                    for (uint32_t y = late; y; y &= y - 1)
                        out |= behind[low_index(y)];
                    for (uint32_t g = gap & ~kings; g;) {
                        int u = pc->tvalues[low_index(g)];
                        uint32_t ub = g & vb[u];
                        g ^= ub;
                        if (bits_in(ub) > bits_in(mask & pb[PAIR_SUM - u] & ~out)) {
                            t = -1;
                            break;
                        }
                    }
                    if (t >= 0) {
                        /* the window: what must leave first, after the draw of the card of
                         * value w this card takes (see the reference) */
                        int low = low_index(below);
                        uint32_t rest = tal >> (low + 1) << (low + 1);
                        uint32_t inside = pre[places[e]], window = inside;
                        if (j >= p || t0 >> 5) {
                            window = 0;
                            long long drawn = t0 >> 5 << 5 | j;
                            for (uint32_t b = entries[3 * e + 2]; b; b &= b - 1)
                                if (times[low_index(b)] > drawn)
                                    window |= 1u << places[low_index(b)];
                            if (window)
                                for (uint32_t x = inside & ~window; x; x &= x - 1)
                                    if (pre[low_index(x)] & window)
                                        window |= x & -x;
                        }
                        if (window) {
                            int got = counter_blocked(pc, mask, vals, wanted, window, rest);
                            if (got < 0)
                                return -1;
                            if (got)
                                t = -1;
                        }
                    }
                }
            }
        }
        if (t < 0) {
            uint32_t ahead = wb >> (c0 + 1);
            t = ahead ? (t0 >> 5) << 5 | (low_index(ahead) + c0 + 2)
                      : ((t0 >> 5) + 1) << 5 | (low_index(wb) + 1);
        }
        times[e] = t;
        if (t > latest) {
            latest = t;
            if (t >> 5 > most) {
                *need = BIG;
                return 0;
            }
        }
    }
    *need = latest >> 5;
    *far = (latest & 31) - 1;
    return 0;
}

static PyObject *counter_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *values, *tvalues;
    static char *names[] = {"values", "tvalues", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO:PassCounter", names, &values, &tvalues))
        return NULL;
    counter_t *pc = (counter_t *)type->tp_alloc(type, 0);
    if (pc == NULL)
        return NULL;
    if (read_values(values, pc->values) < 0 || read_tvalues(tvalues, pc->tvalues, &pc->n) < 0) {
        Py_DECREF(pc);
        return NULL;
    }
    if (PyBytes_GET_SIZE(values) != SIZE) {
        PyErr_SetString(PyExc_TypeError, "values: bytes of the 28 places' values");
        Py_DECREF(pc);
        return NULL;
    }
    fill_place_bits(pc->values, pc->pb);
    fill_talon_bits(pc->tvalues, pc->n, pc->vb);
    return (PyObject *)pc;
}

static void counter_dealloc(counter_t *pc)
{
    counter_clear(pc);
    Py_TYPE(pc)->tp_free((PyObject *)pc);
}

static PyObject *counter_passes_needed(counter_t *pc, PyObject *const *args, Py_ssize_t nargs)
{
    uint32_t mask, tal;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "expected (mask, tal, p, most)");
        return NULL;
    }
    if (read_bits(args[0], SIZE, &mask) < 0 || read_bits(args[1], pc->n, &tal) < 0)
        return NULL;
    long p = PyLong_AsLong(args[2]);
    if (p == -1 && PyErr_Occurred())
        return NULL;
    if (p < 0 || p > pc->n) {
        PyErr_SetString(PyExc_ValueError, "p: a talon position, 0 to the talon's length");
        return NULL;
    }
    long long most = PyLong_AsLongLong(args[3]);
    if (most == -1 && PyErr_Occurred())
        return NULL;
    long long need, far;
    if (counter_passes(pc, mask, tal, (int)p, most, &need, &far) < 0)
        return NULL;
    PyObject *a = PyLong_FromLongLong(need), *b = PyLong_FromLongLong(far);
    PyObject *out = a == NULL || b == NULL ? NULL : PyTuple_Pack(2, a, b);
    Py_XDECREF(a);
    Py_XDECREF(b);
    return out;
}

static PyObject *counter_window_blocked(counter_t *pc, PyObject *const *args,
                                        Py_ssize_t nargs)
{
    uint32_t mask, vals, inside, above;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "expected (mask, vals, inside, above)");
        return NULL;
    }
    if (read_bits(args[0], SIZE, &mask) < 0 || read_bits(args[1], 32, &vals) < 0 ||
        read_bits(args[2], SIZE, &inside) < 0 || read_bits(args[3], pc->n, &above) < 0)
        return NULL;
    int got = counter_blocked(pc, mask, vals, wanted_of(pc, mask), inside, above);
    if (got < 0)
        return NULL;
    return PyBool_FromLong(got);
}

/* usable_values(mask, pool) of the counter's mask (its arguments read); -1 with an
 * exception set */
static long long usable_of_args(counter_t *pc, PyObject *const *args, Py_ssize_t nargs)
{
    uint32_t mask, pool;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "expected (mask, pool)");
        return -1;
    }
    if (read_bits(args[0], SIZE, &mask) < 0 || read_bits(args[1], 32, &pool) < 0)
        return -1;
    return counter_usable(pc, mask, pool, wanted_of(pc, mask));
}

static PyObject *counter_usable_values(counter_t *pc, PyObject *const *args,
                                       Py_ssize_t nargs)
{
    long long got = usable_of_args(pc, args, nargs);
    return got < 0 ? NULL : PyLong_FromLongLong(got);
}

/* PassCounter.usable_positions(): the talon positions of the values usable_values()
 * allows (an OR of 13 words: no table of its own) */
static PyObject *counter_usable_positions(counter_t *pc, PyObject *const *args,
                                          Py_ssize_t nargs)
{
    long long usable = usable_of_args(pc, args, nargs);
    if (usable < 0)
        return NULL;
    uint32_t ok = 0;
    for (int u = 1; u <= KING; u++)
        if (usable >> u & 1)
            ok |= pc->vb[u];
    return PyLong_FromUnsignedLong(ok);
}

static PyObject *counter_reachable_waste(counter_t *pc, PyObject *const *args,
                                         Py_ssize_t nargs)
{
    uint32_t mask, low, pool;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "expected (mask, low, pool)");
        return NULL;
    }
    if (read_bits(args[0], SIZE, &mask) < 0 || read_bits(args[1], pc->n, &low) < 0 ||
        read_bits(args[2], 32, &pool) < 0)
        return NULL;
    long long got = counter_reachable(pc, mask, low, pool);
    return got < 0 ? NULL : PyLong_FromLongLong(got);
}

static PyObject *counter_staying_method(counter_t *pc, PyObject *const *args, Py_ssize_t nargs)
{
    uint32_t mask, tal;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "expected (mask, tal, last)");
        return NULL;
    }
    if (read_bits(args[0], SIZE, &mask) < 0 || read_bits(args[1], pc->n, &tal) < 0)
        return NULL;
    long last = PyLong_AsLong(args[2]);
    if (last == -1 && PyErr_Occurred())
        return NULL;
    if (last < -1 || last >= TALON) {
        PyErr_SetString(PyExc_ValueError, "last: a talon position, or -1");
        return NULL;
    }
    long long got = counter_staying(pc, mask, tal, (int)last);
    return got < 0 ? NULL : PyLong_FromLongLong(got);
}

static PyObject *counter_key(counter_t *pc, PyObject *const *args, Py_ssize_t nargs)
{
    uint32_t mask, vals;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "expected (mask, vals)");
        return NULL;
    }
    if (read_bits(args[0], SIZE, &mask) < 0 || read_bits(args[1], 32, &vals) < 0)
        return NULL;
    return PyLong_FromUnsignedLongLong(table_key(pc, mask, vals));
}

static PyObject *counter_clear_method(counter_t *pc, PyObject *unused)
{
    counter_clear(pc);
    Py_RETURN_NONE;
}

static PyMethodDef counter_methods[] = {
    {"clear", (PyCFunction)counter_clear_method, METH_NOARGS, NULL},
    {"key", (PyCFunction)(void (*)(void))counter_key, METH_FASTCALL, NULL},
    {"passes_needed", (PyCFunction)(void (*)(void))counter_passes_needed, METH_FASTCALL, NULL},
    {"reachable_waste", (PyCFunction)(void (*)(void))counter_reachable_waste, METH_FASTCALL,
     NULL},
    {"staying", (PyCFunction)(void (*)(void))counter_staying_method, METH_FASTCALL, NULL},
    {"usable_positions", (PyCFunction)(void (*)(void))counter_usable_positions, METH_FASTCALL,
     NULL},
    {"usable_values", (PyCFunction)(void (*)(void))counter_usable_values, METH_FASTCALL,
     NULL},
    {"window_blocked", (PyCFunction)(void (*)(void))counter_window_blocked, METH_FASTCALL,
     NULL},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject counter_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "dailydeal.solvers.pyramid_closure.PassCounter",
    .tp_doc = "passes_needed() of one deal, with its tables (pyramid_closure.py's PassCounter).",
    .tp_basicsize = sizeof(counter_t),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = counter_new,
    .tp_dealloc = (destructor)counter_dealloc,
    .tp_methods = counter_methods,
};

static PyObject *py_has_partner(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    uint32_t pre[SIZE], cand, c;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "expected (pre, cand, c)");
        return NULL;
    }
    if (!PyList_Check(args[0]) || PyList_GET_SIZE(args[0]) != SIZE) {
        PyErr_SetString(PyExc_TypeError, "pre: a list of the 28 places' masks");
        return NULL;
    }
    for (int i = 0; i < SIZE; i++)
        if (read_bits(PyList_GET_ITEM(args[0], i), SIZE, &pre[i]) < 0)
            return NULL;
    if (read_bits(args[1], SIZE, &cand) < 0 || read_bits(args[2], 5, &c) < 0)
        return NULL;
    if (c >= SIZE) {
        PyErr_SetString(PyExc_ValueError, "c: a place, 0 to 27");
        return NULL;
    }
    return PyBool_FromLong(partner(pre, cand, (int)c));
}

static PyObject *tuple_of(const uint32_t *masks)
{
    PyObject *list = pre_list(masks);
    if (list == NULL)
        return NULL;
    PyObject *out = PyList_AsTuple(list);
    Py_DECREF(list);
    return out;
}

static PyObject *py_blockers(PyObject *module, PyObject *unused) { return tuple_of(blockers); }

static PyObject *py_behind(PyObject *module, PyObject *unused) { return tuple_of(behind); }

static PyMethodDef module_methods[] = {
    {"behind", (PyCFunction)py_behind, METH_NOARGS, NULL},
    {"blockers", (PyCFunction)py_blockers, METH_NOARGS, NULL},
    {"forced_chain", (PyCFunction)(void (*)(void))py_forced_chain, METH_FASTCALL, NULL},
    {"has_partner", (PyCFunction)(void (*)(void))py_has_partner, METH_FASTCALL, NULL},
    {"precedence", (PyCFunction)(void (*)(void))py_precedence, METH_FASTCALL, NULL},
    {"usable_values", (PyCFunction)(void (*)(void))py_usable_values, METH_FASTCALL, NULL},
    {"window_takes", (PyCFunction)(void (*)(void))py_window_takes, METH_FASTCALL, NULL},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef closure_module = {
    PyModuleDef_HEAD_INIT,
    "dailydeal.solvers.pyramid_closure",
    "Pyramid's precedence closure, in C (pyramid_closure.py is the reference).",
    -1,
    module_methods,
};

PyMODINIT_FUNC PyInit_pyramid_closure(void)
{
    fill_blockers();
    PyObject *m = PyModule_Create(&closure_module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddIntConstant(m, "NATIVE", 1) < 0 ||
        PyModule_AddIntConstant(m, "BIG", BIG) < 0 ||
        PyModule_AddIntConstant(m, "TALON", TALON) < 0 ||
        PyModule_AddType(m, &counter_type) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
