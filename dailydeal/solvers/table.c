/* dailydeal.solvers.table, in C: the table of positions of the Gaps solver.
 *
 * table.py is the reference (its docstrings say what each operation does); this module
 * does the same, operation for operation, with the same answers and the same positions
 * dropped by age(), so that a search gives the same nodes with either. What differs is
 * the cost: a Python dict holds each key as an int object of 64 bytes plus a slot of
 * about 30 bytes; here a position is one record of 40 bytes (its key's 36 bytes, little
 * endian, and its value) and an offset byte in an open-addressed table (linear probing,
 * deletion by backward shift: no tombstones), filled up to 31/32: 43 bytes a position
 * at the most filled, 8,000,000 positions in 2**23 slots (344 MB).
 *
 * The table is split into SEGMENTS parts by the top bits of the key's hash; each part
 * doubles on its own when more than 31/32 full, so growing never holds two copies of the
 * whole table (a dict does, briefly), and each part's slots are mapped from the system
 * (mmap) when large, so that what is freed is given back at once.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#define HAVE_MMAP 1
#endif

#define KEY_BYTES 36        /* keys are ints 0 <= key < 2**288 */
#define SEGMENT_SHIFT 56    /* the top 8 bits of the hash choose the part */
#define SEGMENTS 256
#define FIRST_SLOTS 64      /* slots of a part at first (a power of 2) */
#define MMAP_BYTES 65536    /* parts this large are mapped, not malloc'ed */
#define EPOCH_STAMPS 65536  /* table.py EPOCH: stamps per epoch */
#define DEAD (-1)
#define FAR 255             /* the offset byte of a record 254 or more slots from home */
/* a part doubles when more than LOAD_NUM / LOAD_DEN of its slots would be taken */
#define LOAD_NUM 31
#define LOAD_DEN 32

/* val: n + 1 an open position of visit number n, -1 - e proved lost at epoch e (whether a
 * slot is taken is its offset byte's to say: see Part) */
typedef struct {
    uint8_t key[KEY_BYTES];
    int32_t val;
} Record;

/* Beside each part's records, one byte a slot: 0 empty, else 1 + the distance from the
 * record's home slot to its slot (FAR for a distance of 254 or more, read again from the
 * hash). A lookup reads these bytes and compares the keys of the records whose home is
 * its own only, and a removal finds each record's home without hashing: so the parts can
 * be filled to 31/32, where the long runs of linear probing cost a scan of bytes, not of
 * records. */
typedef struct {
    Record *slots;
    uint8_t *offset; /* after the records, in the same allocation */
    size_t mask;     /* slots - 1 */
    size_t used;
} Part;

typedef struct {
    PyObject_HEAD
    Part parts[SEGMENTS];
    Py_ssize_t len;
    int32_t epoch;
    int32_t stamps;        /* stamps made in this epoch */
    Py_ssize_t *per_epoch; /* entries proved lost, per epoch of their stamp */
    Py_ssize_t epochs;     /* length of per_epoch */
} Table;

#define SLOT_BYTES (sizeof(Record) + 1)

/* n empty slots (zeroed) for part p; -1 when out of memory */
static int alloc_slots(Part *p, size_t n)
{
    size_t bytes = n * SLOT_BYTES;
    void *m;
#ifdef HAVE_MMAP
    if (bytes >= MMAP_BYTES) {
        m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED)
            m = NULL;
    }
    else
#endif
        m = PyMem_RawCalloc(n, SLOT_BYTES);
    if (m == NULL)
        return -1;
    p->slots = (Record *)m;
    p->offset = (uint8_t *)(p->slots + n);
    p->mask = n - 1;
    return 0;
}

static void free_slots(Record *slots, size_t n)
{
    if (slots == NULL)
        return;
#ifdef HAVE_MMAP
    if (n * SLOT_BYTES >= MMAP_BYTES) {
        munmap(slots, n * SLOT_BYTES);
        return;
    }
#endif
    PyMem_RawFree(slots);
}

static inline uint64_t hash_key(const uint8_t *k)
{
    uint64_t w[4];
    uint32_t t;
    memcpy(w, k, 32);
    memcpy(&t, k + 32, 4);
    uint64_t h = (uint64_t)t * 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < 4; i++) {
        h = (h ^ w[i]) * 0xff51afd7ed558ccdULL;
        h ^= h >> 31;
    }
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

/* The key's 36 bytes, or -1 with an exception (not an int, negative, 2**288 or more). */
static int key_bytes(PyObject *key, uint8_t *out)
{
    if (!PyLong_Check(key)) {
        PyErr_Format(PyExc_TypeError, "a position's key is an int, not %.100s",
                     Py_TYPE(key)->tp_name);
        return -1;
    }
#if PY_VERSION_HEX < 0x030C0000 && PY_LITTLE_ENDIAN && PYLONG_BITS_IN_DIGIT == 30
    /* CPython 3.11 keeps an int as its size and 30-bit digits: packed here directly, the
     * same bytes as _PyLong_AsByteArray's (its generic loop was 8% of a Gaps search) */
    Py_ssize_t n = Py_SIZE(key);
    if (n >= 0 && n <= 10) {
        /* digit i is bits 30 i to 30 i + 29: the shifts written out, on the digits padded
         * with zeros to 10 (a loop over n with computed shifts took 5% of a search) */
        uint64_t d[10] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        for (Py_ssize_t i = 0; i < n; i++)
            d[i] = ((PyLongObject *)key)->ob_digit[i];
        uint64_t w[5] = {
            d[0] | d[1] << 30 | d[2] << 60,
            d[2] >> 4 | d[3] << 26 | d[4] << 56,
            d[4] >> 8 | d[5] << 22 | d[6] << 52,
            d[6] >> 12 | d[7] << 18 | d[8] << 48,
            d[8] >> 16 | d[9] << 14,
        };
        if ((w[4] >> 32) == 0) {
            memcpy(out, w, KEY_BYTES);
            return 0;
        }
    }
#endif
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t n = PyLong_AsNativeBytes(key, out, KEY_BYTES,
                                        Py_ASNATIVEBYTES_LITTLE_ENDIAN |
                                            Py_ASNATIVEBYTES_UNSIGNED_BUFFER |
                                            Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    if (n < 0)
        return -1;
    if (n > KEY_BYTES) {
        PyErr_SetString(PyExc_OverflowError, "a position's key is below 2**288");
        return -1;
    }
    return 0;
#else
    if (_PyLong_AsByteArray((PyLongObject *)key, out, KEY_BYTES, 1, 0) < 0)
        return -1;
    return 0;
#endif
}

/* How far slot i of part p lies from the home of hash h. */
static inline size_t from_home(const Part *p, size_t i, uint64_t h)
{
    return (i - (size_t)h) & p->mask;
}

static inline uint8_t offset_byte(size_t distance)
{
    return distance < FAR - 1 ? (uint8_t)(distance + 1) : FAR;
}

/* The slot of key k (hash h) in part p: its own (*found = 1), or the empty one where it
 * would go. Only the records whose offset byte says their home is h's are compared. */
static inline size_t find(Part *p, const uint8_t *k, uint64_t h, int *found)
{
    size_t mask = p->mask, i = (size_t)h & mask;
    unsigned want = 1; /* the offset byte of a record of this home in slot i */
#if defined(__GNUC__)
    /* the home's record is read next, most often: its cache miss overlaps the byte's */
    __builtin_prefetch(&p->slots[i]);
#endif
    for (;;) {
        unsigned b = p->offset[i];
        if (b == 0) {
            *found = 0;
            return i;
        }
        if (b == want && memcmp(p->slots[i].key, k, KEY_BYTES) == 0) {
            *found = 1;
            return i;
        }
        i = (i + 1) & mask;
        if (want < FAR)
            want++;
    }
}

/* The distance of the record in slot i from its home. */
static inline size_t distance_at(Part *p, size_t i)
{
    unsigned b = p->offset[i];
    if (b < FAR)
        return b - 1;
    return from_home(p, i, hash_key(p->slots[i].key));
}

/* Put record r (hash h) in the first empty slot from its home. */
static void place(Part *p, const Record *r, uint64_t h)
{
    size_t i = (size_t)h & p->mask;
    while (p->offset[i] != 0)
        i = (i + 1) & p->mask;
    p->slots[i] = *r;
    p->offset[i] = offset_byte(from_home(p, i, h));
}

static int grow(Part *p)
{
    Part old = *p;
    size_t n = old.mask + 1;
    if (alloc_slots(p, n * 2) < 0) {
        *p = old;
        PyErr_NoMemory();
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        if (old.offset[i] != 0)
            place(p, &old.slots[i], hash_key(old.slots[i].key));
    free_slots(old.slots, n);
    return 0;
}

/* Empty slot i of part p, moving back the records after it that may take its place. */
static void remove_at(Part *p, size_t i)
{
    size_t j = i, mask = p->mask;
    for (;;) {
        j = (j + 1) & mask;
        if (p->offset[j] == 0)
            break;
        size_t distance = distance_at(p, j), gap = (j - i) & mask;
        /* the record at j may fill the hole at i unless its home lies after i */
        if (distance >= gap) {
            p->slots[i] = p->slots[j];
            p->offset[i] = offset_byte(distance - gap);
            i = j;
        }
    }
    p->offset[i] = 0;
    p->used--;
}

static int next_stamp(Table *t)
{
    if (++t->stamps < EPOCH_STAMPS)
        return 0;
    t->stamps = 0;
    t->epoch++;
    if (t->epoch >= t->epochs) {
        Py_ssize_t n = t->epochs * 2;
        Py_ssize_t *more = PyMem_Realloc(t->per_epoch, (size_t)n * sizeof(Py_ssize_t));
        if (more == NULL) {
            t->epoch--; /* the stamp stays in this epoch */
            PyErr_NoMemory();
            return -1;
        }
        memset(more + t->epochs, 0, (size_t)(n - t->epochs) * sizeof(Py_ssize_t));
        t->per_epoch = more;
        t->epochs = n;
    }
    return 0;
}

/* Write v (DEAD or a visit number) into r, which holds a position (or is being filled). */
static int put(Table *t, Record *r, int32_t v)
{
    if (r->val < 0)
        t->per_epoch[-1 - r->val]--;
    if (v == DEAD) {
        r->val = -1 - t->epoch;
        t->per_epoch[t->epoch]++;
        return next_stamp(t);
    }
    r->val = v + 1;
    return 0;
}

/* What a read answers: DEAD (stamped again when from an older epoch) or the visit number. */
static inline int read_value(Table *t, Record *r, int32_t *out)
{
    if (r->val > 0) {
        *out = r->val - 1;
        return 0;
    }
    *out = DEAD;
    if (-1 - r->val != t->epoch)
        return put(t, r, DEAD);
    return 0;
}

static int value_of(PyObject *value, int32_t *out)
{
    long v = PyLong_AsLong(value);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < DEAD || v >= INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "a value is DEAD (-1) or a visit number 0 <= n < 2**31 - 1");
        return -1;
    }
    *out = (int32_t)v;
    return 0;
}

/* Where a key is, or would go: its bytes and hash, its part, slot and record, and
 * whether it is there. */
typedef struct {
    uint8_t k[KEY_BYTES];
    uint64_t h;
    Part *p;
    size_t i;
    Record *r;
    int found;
} Place;

/* where the key of bytes k is, or would go */
static void place_bytes(Table *t, const uint8_t *k, Place *at)
{
    if (at->k != k)
        memcpy(at->k, k, KEY_BYTES);
    at->h = hash_key(at->k);
    at->p = &t->parts[at->h >> SEGMENT_SHIFT];
    at->i = find(at->p, at->k, at->h, &at->found);
    at->r = &at->p->slots[at->i];
}

static int locate(Table *t, PyObject *key, Place *at)
{
    if (key_bytes(key, at->k) < 0)
        return -1;
    place_bytes(t, at->k, at);
    return 0;
}

/* locate, for a key that must be there (KeyError if not) */
static int locate_held(Table *t, PyObject *key, Place *at)
{
    if (locate(t, key, at) < 0)
        return -1;
    if (!at->found) {
        PyErr_SetObject(PyExc_KeyError, key);
        return -1;
    }
    return 0;
}

/* Take the position at ``at`` out of the table. */
static void drop(Table *t, Place *at)
{
    if (at->r->val < 0)
        t->per_epoch[-1 - at->r->val]--;
    remove_at(at->p, at->i);
    t->len--;
}

/* Insert v for the key at ``at`` (absent: its slot is the empty one where it would go). */
static int insert(Table *t, Place *at, int32_t v)
{
    Part *p = at->p;
    if ((p->used + 1) * LOAD_DEN > (p->mask + 1) * LOAD_NUM) {
        if (grow(p) < 0)
            return -1;
        at->i = find(p, at->k, at->h, &at->found);
        at->r = &p->slots[at->i];
    }
    memcpy(at->r->key, at->k, KEY_BYTES);
    at->r->val = 0; /* a slot emptied keeps its old value: put() must not uncount it */
    p->offset[at->i] = offset_byte(from_home(p, at->i, at->h));
    p->used++;
    t->len++;
    return put(t, at->r, v);
}

static PyObject *Table_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    if (PyTuple_GET_SIZE(args) || (kwds && PyDict_GET_SIZE(kwds))) {
        PyErr_SetString(PyExc_TypeError, "PositionTable() takes no arguments");
        return NULL;
    }
    Table *t = (Table *)type->tp_alloc(type, 0);
    if (t == NULL)
        return NULL;
    t->epochs = 16;
    t->per_epoch = PyMem_Calloc((size_t)t->epochs, sizeof(Py_ssize_t));
    if (t->per_epoch == NULL) {
        Py_DECREF(t);
        return PyErr_NoMemory();
    }
    for (int i = 0; i < SEGMENTS; i++) {
        if (alloc_slots(&t->parts[i], FIRST_SLOTS) < 0) {
            Py_DECREF(t);
            return PyErr_NoMemory();
        }
    }
    return (PyObject *)t;
}

static void Table_dealloc(Table *t)
{
    for (int i = 0; i < SEGMENTS; i++)
        free_slots(t->parts[i].slots, t->parts[i].mask + 1);
    PyMem_Free(t->per_epoch);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

static Py_ssize_t Table_len(Table *t) { return t->len; }

static PyObject *Table_getitem(Table *t, PyObject *key)
{
    Place at;
    int32_t v;
    if (locate_held(t, key, &at) < 0 || read_value(t, at.r, &v) < 0)
        return NULL;
    return PyLong_FromLong(v);
}

static int Table_setitem(Table *t, PyObject *key, PyObject *value)
{
    Place at;
    int32_t v;
    if (value == NULL) { /* del table[key] */
        if (locate_held(t, key, &at) < 0)
            return -1;
        drop(t, &at);
        return 0;
    }
    if (locate(t, key, &at) < 0 || value_of(value, &v) < 0)
        return -1;
    return at.found ? put(t, at.r, v) : insert(t, &at, v);
}

static int Table_contains(Table *t, PyObject *key)
{
    Place at;
    int32_t v;
    if (locate(t, key, &at) < 0 || (at.found && read_value(t, at.r, &v) < 0))
        return -1;
    return at.found;
}

static PyObject *Table_setdefault(Table *t, PyObject *const *args, Py_ssize_t nargs)
{
    Place at;
    int32_t v;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "setdefault(key, value) takes 2 arguments");
        return NULL;
    }
    if (locate(t, args[0], &at) < 0)
        return NULL;
    if (at.found) {
        if (read_value(t, at.r, &v) < 0)
            return NULL;
        return PyLong_FromLong(v);
    }
    if (value_of(args[1], &v) < 0 || insert(t, &at, v) < 0)
        return NULL;
    Py_INCREF(args[1]);
    return args[1];
}

static PyObject *Table_pop(Table *t, PyObject *key)
{
    Place at;
    if (locate_held(t, key, &at) < 0)
        return NULL;
    int32_t v = at.r->val > 0 ? at.r->val - 1 : DEAD;
    drop(t, &at);
    return PyLong_FromLong(v);
}

static PyObject *Table_prove_lost(Table *t, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyList_CheckExact(args[0])) {
        PyErr_SetString(PyExc_TypeError, "prove_lost(keys, start): a list and an int");
        return NULL;
    }
    PyObject *keys = args[0];
    Py_ssize_t start = PyLong_AsSsize_t(args[1]);
    if (start == -1 && PyErr_Occurred())
        return NULL;
    if (start < 0) {
        PyErr_SetString(PyExc_ValueError, "prove_lost(keys, start): start is 0 or more");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(keys);
    if (start > n)
        start = n;
    for (Py_ssize_t i = start; i < n; i++) {
        Place at;
        if (locate(t, PyList_GET_ITEM(keys, i), &at) < 0)
            return NULL;
        if ((at.found ? put(t, at.r, DEAD) : insert(t, &at, DEAD)) < 0)
            return NULL;
    }
    /* del keys[start:], most often one key: shortened in place (what list.pop does but
     * for giving memory back), since PyList_SetSlice's general case cost more than the
     * proof of a one-position component */
    PyObject **items = ((PyListObject *)keys)->ob_item;
    Py_SET_SIZE(keys, start);
    for (Py_ssize_t i = start; i < n; i++)
        Py_DECREF(items[i]); /* ints (locate took each): no code runs */
    Py_RETURN_NONE;
}

static PyObject *Table_age(Table *t, PyObject *arg)
{
    Py_ssize_t keep = PyLong_AsSsize_t(arg);
    if (keep == -1 && PyErr_Occurred())
        return NULL;
    if (keep < 0) {
        PyErr_SetString(PyExc_ValueError, "age(keep): keep is 0 or more");
        return NULL;
    }
    if (t->len <= keep)
        return PyLong_FromLong(0);
    /* the oldest epochs whose entries, all dropped, bring the table down to keep */
    Py_ssize_t need = t->len - keep, sum = 0;
    int32_t below = 0;
    while (below <= t->epoch && sum < need)
        sum += t->per_epoch[below++];
    Py_ssize_t dropped = 0;
    for (int s = 0; s < SEGMENTS; s++) {
        Part *p = &t->parts[s];
        for (size_t i = 0; i <= p->mask;) {
            int32_t val = p->slots[i].val;
            if (p->offset[i] != 0 && val < 0 && -1 - val < below) {
                remove_at(p, i); /* what moves into slot i is looked at next */
                dropped++;
                continue;
            }
            i++;
        }
    }
    for (int32_t e = 0; e < below; e++)
        t->per_epoch[e] = 0;
    t->len -= dropped;
    return PyLong_FromSsize_t(dropped);
}

static PyObject *Table_get_epoch(Table *t, void *closure) { return PyLong_FromLong(t->epoch); }

static PyObject *Table_get_slots(Table *t, void *closure)
{
    size_t n = 0;
    for (int s = 0; s < SEGMENTS; s++)
        n += t->parts[s].mask + 1;
    return PyLong_FromSize_t(n);
}

static PyObject *Table_items(Table *t, PyObject *unused)
{
    PyObject *out = PyList_New(0);
    if (out == NULL)
        return NULL;
    for (int s = 0; s < SEGMENTS; s++) {
        Part *p = &t->parts[s];
        for (size_t i = 0; i <= p->mask; i++) {
            Record *r = &p->slots[i];
            if (p->offset[i] == 0)
                continue;
            PyObject *key = _PyLong_FromByteArray(r->key, KEY_BYTES, 1, 0);
            PyObject *item = key == NULL ? NULL
                                         : Py_BuildValue("(Nl)", key, (long)(r->val > 0 ? r->val - 1 : DEAD));
            if (item == NULL || PyList_Append(out, item) < 0) {
                Py_XDECREF(item);
                Py_DECREF(out);
                return NULL;
            }
            Py_DECREF(item);
        }
    }
    return out;
}

static PyMethodDef Table_methods[] = {
    {"setdefault", (PyCFunction)(void (*)(void))Table_setdefault, METH_FASTCALL, NULL},
    {"pop", (PyCFunction)Table_pop, METH_O, NULL},
    {"age", (PyCFunction)Table_age, METH_O, NULL},
    {"prove_lost", (PyCFunction)(void (*)(void))Table_prove_lost, METH_FASTCALL, NULL},
    {"items", (PyCFunction)Table_items, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Table_getset[] = {
    {"epoch", (getter)Table_get_epoch, NULL, NULL, NULL},
    {"slots", (getter)Table_get_slots, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMappingMethods Table_mapping = {
    (lenfunc)Table_len,
    (binaryfunc)Table_getitem,
    (objobjargproc)Table_setitem,
};

static PySequenceMethods Table_sequence = {
    .sq_contains = (objobjproc)Table_contains,
};

static PyTypeObject TableType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "dailydeal.solvers.table.PositionTable",
    .tp_basicsize = sizeof(Table),
    .tp_dealloc = (destructor)Table_dealloc,
    .tp_as_mapping = &Table_mapping,
    .tp_as_sequence = &Table_sequence,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Positions (ints below 2**288) -> DEAD or a visit number: table.py says how.",
    .tp_methods = Table_methods,
    .tp_getset = Table_getset,
    .tp_new = Table_new,
};

/* The operations of the search in C (gaps_last.c) on a table, by a key's 36 bytes: what
 * setdefault, [] = v, in and del do, without an int made per key. Exported as a capsule
 * (TABLE_API_NAME); gaps_last.c declares the same struct, checked by TABLE_API_VERSION. */
#define TABLE_API_NAME "dailydeal.solvers.table._C_API"
#define TABLE_API_VERSION 1

typedef struct {
    int version;
    PyTypeObject *type;
    int (*setdefault)(PyObject *t, const uint8_t *k, int32_t v, int32_t *out);
    int (*set)(PyObject *t, const uint8_t *k, int32_t v);
    int (*contains)(PyObject *t, const uint8_t *k);
    int (*remove)(PyObject *t, const uint8_t *k);
    Py_ssize_t (*len)(PyObject *t);
} TableAPI;

/* setdefault(key, v): *out is the value held (read as ``[]`` reads it) or v, inserted */
static int api_setdefault(PyObject *o, const uint8_t *k, int32_t v, int32_t *out)
{
    Table *t = (Table *)o;
    Place at;
    place_bytes(t, k, &at);
    if (at.found)
        return read_value(t, at.r, out);
    *out = v;
    return insert(t, &at, v);
}

/* table[key] = v */
static int api_set(PyObject *o, const uint8_t *k, int32_t v)
{
    Table *t = (Table *)o;
    Place at;
    place_bytes(t, k, &at);
    return at.found ? put(t, at.r, v) : insert(t, &at, v);
}

/* key in table: 1, 0, or -1 with an exception */
static int api_contains(PyObject *o, const uint8_t *k)
{
    Table *t = (Table *)o;
    Place at;
    int32_t v;
    place_bytes(t, k, &at);
    if (at.found && read_value(t, at.r, &v) < 0)
        return -1;
    return at.found;
}

/* del table[key]: -1 with a KeyError when it is not there */
static int api_remove(PyObject *o, const uint8_t *k)
{
    Table *t = (Table *)o;
    Place at;
    place_bytes(t, k, &at);
    if (!at.found) {
        PyErr_SetString(PyExc_KeyError, "a position not in the table");
        return -1;
    }
    drop(t, &at);
    return 0;
}

static Py_ssize_t api_len(PyObject *o) { return ((Table *)o)->len; }

static TableAPI table_api = {
    TABLE_API_VERSION, &TableType, api_setdefault, api_set, api_contains, api_remove, api_len,
};

/* _hash(key): the hash that places a key (its part: the top 8 bits; its home slot: the
 * low bits), so that the tests can choose keys that make long runs */
static PyObject *module_hash(PyObject *module, PyObject *key)
{
    uint8_t k[KEY_BYTES];
    if (key_bytes(key, k) < 0)
        return NULL;
    return PyLong_FromUnsignedLongLong(hash_key(k));
}

static PyMethodDef module_methods[] = {
    {"_hash", (PyCFunction)module_hash, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef table_module = {
    PyModuleDef_HEAD_INIT,
    "dailydeal.solvers.table",
    "The Gaps solver's table of positions, in C (table.py is the reference).",
    -1,
    module_methods,
};

PyMODINIT_FUNC PyInit_table(void)
{
    if (PyType_Ready(&TableType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&table_module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&TableType);
    if (PyModule_AddObject(m, "PositionTable", (PyObject *)&TableType) < 0 ||
        PyModule_AddIntConstant(m, "DEAD", DEAD) < 0 ||
        PyModule_AddIntConstant(m, "EPOCH", EPOCH_STAMPS) < 0 ||
        PyModule_AddIntConstant(m, "KEY_BITS", KEY_BYTES * 8) < 0 ||
        PyModule_AddIntConstant(m, "NATIVE", 1) < 0 ||
        PyModule_AddObject(m, "_C_API", PyCapsule_New(&table_api, TABLE_API_NAME, NULL)) < 0) {
        Py_DECREF(&TableType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
