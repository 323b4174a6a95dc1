/* dailydeal.solvers.pyramid_closure, in C: which pyramid cards must leave before which.
 *
 * pyramid_closure.py is the reference (its docstrings say what each function does); this
 * module does the same, step for step, with the same answers. What differs is the cost:
 * compiled by mypyc, precedence() keeps its 28 masks as boxed ints in a list and rescans
 * them until nothing changes, about 23,000 instructions a call; here they are 28 words on
 * the stack, and window_takes() returns one int where the list was built, read and freed.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define SIZE 28     /* places of the pyramid */
#define ROWS 7
#define KING 13
#define PAIR_SUM 13

static uint32_t blockers[SIZE]; /* pyramid_closure.blockers(), filled at import */

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
}

static inline int low_index(uint32_t x) { return __builtin_ctz(x); }

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
    PyObject *out = PyList_New(__builtin_popcount(bits));
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

static PyObject *py_window_takes(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    uint8_t values[SIZE];
    uint32_t mask, vals, inside, ivals, pre[SIZE], place_bits[KING + 1];
    if (read_args(args, nargs, values, &mask, &vals, &inside, &ivals) < 0)
        return NULL;
    fill_place_bits(values, place_bits);
    if (closure(values, place_bits, mask, vals, inside, ivals, pre))
        return PyLong_FromLong(-1);
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
    return PyLong_FromLongLong(takes);
}

static PyObject *py_forced_chain(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    uint8_t values[SIZE];
    uint32_t mask, vals, pre[SIZE], place_bits[KING + 1];
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "expected (values, mask, vals)");
        return NULL;
    }
    if (read_values(args[0], values) < 0 || read_bits(args[1], SIZE, &mask) < 0 ||
        read_bits(args[2], 32, &vals) < 0)
        return NULL;
    fill_place_bits(values, place_bits);
    if (closure(values, place_bits, mask, vals, 0, 0, pre))
        Py_RETURN_NONE;
    /* the places from the highest, stably sorted by how many cards must leave first */
    int places[SIZE], n = 0;
    for (int i = SIZE - 1; i >= 0; i--) {
        if (!(mask >> i & 1))
            continue;
        int count = __builtin_popcount(pre[i]), at = n++;
        while (at > 0 && __builtin_popcount(pre[places[at - 1]]) > count) {
            places[at] = places[at - 1];
            at--;
        }
        places[at] = i;
    }
    /* entries: their places, and their nearest and all earlier entries as index bits */
    int eplace[SIZE];
    uint32_t ebefore[SIZE], eabove[SIZE];
    int k = 0;
    PyObject *chain = PyList_New(0);
    if (chain == NULL)
        return NULL;
    for (int a = 0; a < n; a++) {
        int i = places[a];
        int v = values[i];
        if (v == KING || partner(pre, mask & place_bits[PAIR_SUM - v], i))
            continue;
        uint32_t above = 0, covered = 0;
        for (int e = 0; e < k; e++)
            if (pre[i] >> eplace[e] & 1) {
                above |= 1u << e;
                covered |= ebefore[e] | eabove[e];
            }
        eplace[k] = i;
        ebefore[k] = above & ~covered;
        eabove[k] = above;
        k++;
        PyObject *before = index_list(above & ~covered), *all = index_list(above);
        PyObject *entry = before == NULL || all == NULL ? NULL
            : Py_BuildValue("(iOiOk)", PAIR_SUM - v, before, i, all, (unsigned long)pre[i]);
        Py_XDECREF(before);
        Py_XDECREF(all);
        if (entry == NULL || PyList_Append(chain, entry) < 0) {
            Py_XDECREF(entry);
            Py_DECREF(chain);
            return NULL;
        }
        Py_DECREF(entry);
    }
    PyObject *pres = pre_list(pre);
    if (pres == NULL) {
        Py_DECREF(chain);
        return NULL;
    }
    return Py_BuildValue("(NN)", chain, pres);
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
    return PyLong_FromUnsignedLong(found);
}

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

static PyObject *py_blockers(PyObject *module, PyObject *unused)
{
    PyObject *list = pre_list(blockers);
    if (list == NULL)
        return NULL;
    PyObject *out = PyList_AsTuple(list);
    Py_DECREF(list);
    return out;
}

static PyMethodDef module_methods[] = {
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
    if (PyModule_AddIntConstant(m, "NATIVE", 1) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
