/* dailydeal.solvers.gaps_last, in C: the last round of the Gaps search (no redeal left).
 *
 * gaps.py's ``_Search.last_round`` is the reference (its docstring and comments say what
 * each step does and why); this is the same search, step for step: the same moves in the
 * same order, the same sleep sets, the same keys (the base-53 int of ``gaps._key``, as
 * its 36 little-endian bytes) and the same table operations in the same order, so it
 * makes the same nodes, the same proofs and ages the table at the same points
 * (tests/test_solver_gaps.py compares the two). What differs is the cost of a node: the
 * key is five 64-bit words updated in place, the stacks are C arrays, and the table
 * (table.c) is reached through its capsule by the key's bytes, where the compiled Python
 * made an int, a list item and a method call per step.
 *
 * When the table is not table.c's (the Python build of table.py runs, or a capsule of
 * another version), ``last_round`` calls the reference.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define CELLS 52
#define COLS 13
#define GAP 52
#define ROW_SHIFT 6
#define CARD_MASK 63
#define UNLIMITED 255
#define CHECK 64
#define DEAD (-1)
#define KEY_BYTES 36
#define LIMBS 5
#define SLEEP_ROOM ((uint64_t)1 << 48)

/* table.c's capsule: the same declaration (TABLE_API_VERSION says which) */
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

static TableAPI *api; /* NULL: the reference runs */

static const int TWOS[4] = {1, 14, 27, 40};

/* A key: the int of gaps._key in five little-endian 64-bit words (it is below 2**288). */
typedef struct {
    uint64_t w[LIMBS];
} Key;

static Key POW53[49]; /* 53 ** slot for slot 0..48 (48: LEFT_UNIT, the relocations left) */

static void key_add_mul(Key *k, const Key *p, uint64_t m)
{
    unsigned __int128 carry = 0;
    for (int i = 0; i < LIMBS; i++) {
        unsigned __int128 s = (unsigned __int128)p->w[i] * m + k->w[i] + carry;
        k->w[i] = (uint64_t)s;
        carry = s >> 64;
    }
}

static void key_sub_mul(Key *k, const Key *p, uint64_t m)
{
    unsigned __int128 borrow = 0;
    for (int i = 0; i < LIMBS; i++) {
        unsigned __int128 t = (unsigned __int128)p->w[i] * m + borrow;
        uint64_t lo = (uint64_t)t;
        borrow = t >> 64;
        if (k->w[i] < lo)
            borrow++;
        k->w[i] -= lo;
    }
}

/* the key gains d * 53 ** slot(card) when card moves by d cells (gaps.KEY_STEP) */
static inline void key_step(Key *k, int card, int d)
{
    if (card % 13 == 0)
        return;
    const Key *p = &POW53[card - card / 13 - 1];
    if (d >= 0)
        key_add_mul(k, p, (uint64_t)d);
    else
        key_sub_mul(k, p, (uint64_t)-d);
}

static inline void key_bytes(const Key *k, uint8_t *out)
{
#if PY_LITTLE_ENDIAN
    memcpy(out, k->w, KEY_BYTES);
#else
    for (int i = 0; i < KEY_BYTES; i++)
        out[i] = (uint8_t)(k->w[i / 8] >> (8 * (i % 8)));
#endif
}

/* gaps._key: the cells of the 48 cards that are not aces in base 53, and left above them */
static Key make_key(const int *board, int left)
{
    Key k;
    memset(&k, 0, sizeof k);
    key_add_mul(&k, &POW53[48], (uint64_t)left);
    for (int i = 0; i < CELLS; i++) {
        int card = board[i];
        if (card != GAP && card % 13)
            key_add_mul(&k, &POW53[card - card / 13 - 1], (uint64_t)i);
    }
    return k;
}

/* A growable array of ints (the move stack, marks, visit numbers, the path) */
typedef struct {
    int64_t *a;
    Py_ssize_t n, cap;
} Vec;

/* Room for ``need`` items of ``size`` bytes in the array ``*a`` of ``*cap`` (doubled as
 * needed); -1 with MemoryError */
static int reserve(void **a, Py_ssize_t *cap, Py_ssize_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    Py_ssize_t n = *cap ? *cap : 64;
    while (n < need)
        n *= 2;
    void *more = PyMem_Realloc(*a, (size_t)n * size);
    if (more == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    *a = more;
    *cap = n;
    return 0;
}

static inline int vec_reserve(Vec *v, Py_ssize_t more)
{
    return reserve((void **)&v->a, &v->cap, v->n + more, sizeof(int64_t));
}

static inline int vec_push(Vec *v, int64_t x)
{
    if (v->n == v->cap && vec_reserve(v, 1) < 0)
        return -1;
    v->a[v->n++] = x;
    return 0;
}

/* insert x at index i (what list.insert does) */
static inline void vec_insert(Vec *v, Py_ssize_t i, int64_t x)
{
    /* room was reserved by the caller */
    memmove(v->a + i + 1, v->a + i, (size_t)(v->n - i) * sizeof(int64_t));
    v->a[i] = x;
    v->n++;
}

typedef struct {
    Key *a;
    Py_ssize_t n, cap;
} KeyVec;

static inline int keys_push(KeyVec *v, const Key *k)
{
    if (v->n == v->cap && reserve((void **)&v->a, &v->cap, v->n + 1, sizeof(Key)) < 0)
        return -1;
    v->a[v->n++] = *k;
    return 0;
}

/* The position searched now: the cells, the cards' cells, the 4 gaps, the pass's order */
typedef struct {
    int board[CELLS];
    int pos[53];
    int gaps[4];
    int tb[53];
} State;

static inline int successor(int c) { return c == GAP || c % 13 == 12 ? GAP : c + 1; }

static inline int64_t rank_of(int64_t move, const int *tb)
{
    int card = (int)(move & CARD_MASK);
    return ((int64_t)tb[card] << ROW_SHIFT | card) << 2 | move >> ROW_SHIFT;
}

/* gaps._insert: into out[lo:hi], kept sorted by rank */
static inline void insert_ranked(Vec *out, Py_ssize_t lo, Py_ssize_t hi, int64_t move, const int *tb)
{
    int64_t rank = rank_of(move, tb);
    Py_ssize_t i = hi;
    while (i > lo && rank_of(out->a[i - 1], tb) > rank)
        i--;
    vec_insert(out, i, move);
}

/* gaps._safe */
static inline int safe(int card, const State *s)
{
    if (card % 13 == 12)
        return 1;
    int at = s->pos[card];
    return at % COLS == COLS - 1 || s->board[at + 1] == card + 1;
}

/* gaps._moves: append the legal placements, the first to try last; 0 when none (-1: no
 * memory) */
static int moves_of(const State *s, Vec *out, int relocate, int frozen)
{
    /* a position has at most 4 gaps, each with at most 4 moves */
    if (vec_reserve(out, 16) < 0)
        return -1;
    Py_ssize_t n = out->n, r = n, b = n;
    for (int gi = 0; gi < 4; gi++) {
        int g = s->gaps[gi];
        int col = g % COLS;
        if (col == 0) {
            int row = g / COLS;
            for (int t = 0; t < 4; t++) {
                int two = TWOS[t];
                int64_t move = two | row << ROW_SHIFT;
                if (s->pos[two] % COLS == 0) {
                    if (relocate) {
                        vec_insert(out, r, move);
                        r++;
                        b++;
                    }
                } else if (s->board[g + 1] == two + 1) {
                    out->a[out->n++] = move;
                } else {
                    insert_ranked(out, r, b, move, s->tb);
                    b++;
                }
            }
            continue;
        }
        int card = successor(s->board[g - 1]);
        if (card == GAP)
            continue;
        int base = g - col, first = s->board[base];
        if (card % 13 == col + 1 && first == card - col) {
            int j = 1;
            while (j < col && s->board[base + j] == first + j)
                j++;
            if (j == col) { /* the card extends the kept run of its row */
                if (frozen && safe(card, s)) {
                    out->n = n;
                    out->a[out->n++] = card;
                    return 1;
                }
                out->a[out->n++] = card;
                continue;
            }
        }
        insert_ranked(out, r, b, card, s->tb);
        b++;
    }
    return out->n > n;
}

/* gaps._target */
static inline int target(int64_t move, const State *s)
{
    int card = (int)(move & CARD_MASK);
    if (card % 13 == 1)
        return (int)(move >> ROW_SHIFT) * COLS;
    return s->pos[card - 1] + 1;
}

static inline void replace_gap(int *gaps, int old, int new_)
{
    int i = 0;
    while (gaps[i] != old)
        i++;
    gaps[i] = new_;
}

/* gaps._undo */
static inline void undo(State *s, int card, int src, int dst)
{
    s->board[dst] = GAP;
    s->board[src] = card;
    s->pos[card] = src;
    replace_gap(s->gaps, src, dst);
}

/* rules.gaps.is_won: every row reads 2..K of one suit from column 1 */
static int is_won(const int *board)
{
    for (int row = 0; row < 4; row++) {
        int first = board[row * COLS];
        if (first == GAP || first % 13 != 1)
            return 0;
        for (int j = 1; j < 12; j++)
            if (board[row * COLS + j] != first + j)
                return 0;
    }
    return 1;
}

/* gaps._asleep, _fall_asleep, _inherit: the sleep sets, a move a byte */
static inline int asleep(uint64_t z, int64_t move)
{
    while (z) {
        if ((int64_t)(z & 255) == move)
            return 1;
        z >>= 8;
    }
    return 0;
}

static inline uint64_t fall_asleep(uint64_t z, int64_t move)
{
    return z < SLEEP_ROOM ? z << 8 | (uint64_t)move : z;
}

static uint64_t inherit(uint64_t z, int card, int src, int dst, const int *pos, int limited)
{
    uint64_t out = 0;
    while (z) {
        int t = (int)(z & 255);
        z >>= 8;
        int y = t & CARD_MASK;
        if (y == card)
            continue;
        if (y % 13 == 1) {
            if ((t >> ROW_SHIFT) * COLS == dst)
                continue;
            if (limited && src % COLS == 0 && dst % COLS == 0 && pos[y] % COLS == 0)
                continue;
        } else if (y - 1 == card) {
            continue;
        }
        if (dst % COLS != 0 && pos[y] == dst - 1)
            continue;
        out = out << 8 | (uint64_t)t;
    }
    return out;
}

/* ---- Python glue ---- */

/* *out = o.name, an int; -1 with an exception */
static int get_long_attr(PyObject *o, const char *name, long long *out)
{
    PyObject *v = PyObject_GetAttrString(o, name);
    if (v == NULL)
        return -1;
    *out = PyLong_AsLongLong(v);
    Py_DECREF(v);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

static int set_long_attr(PyObject *o, const char *name, long long value)
{
    PyObject *v = PyLong_FromLongLong(value);
    if (v == NULL)
        return -1;
    int rc = PyObject_SetAttrString(o, name, v);
    Py_DECREF(v);
    return rc;
}

/* search._make_room() (the aging, and its counts: gaps.py) */
static int make_room(PyObject *search)
{
    PyObject *r = PyObject_CallMethod(search, "_make_room", NULL);
    if (r == NULL)
        return -1;
    Py_DECREF(r);
    return 0;
}

/* gaps._forget: the positions still open are not proved lost */
static int forget(PyObject *known, KeyVec *comp)
{
    uint8_t kb[KEY_BYTES];
    for (Py_ssize_t i = 0; i < comp->n; i++) {
        key_bytes(&comp->a[i], kb);
        if (api->remove(known, kb) < 0)
            return -1;
    }
    return 0;
}

/* gaps._steps: [(card, destination)] of the path (card, src pairs), from pos at its end */
static PyObject *steps_of(const State *s, const Vec *path)
{
    int pos[53];
    memcpy(pos, s->pos, sizeof pos);
    Py_ssize_t n = path->n / 2;
    PyObject *out = PyList_New(n);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t i = path->n - 2, j = n - 1; i >= 0; i -= 2, j--) {
        int card = (int)path->a[i];
        PyObject *step = Py_BuildValue("(ii)", card, pos[card]);
        if (step == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, j, step);
        pos[card] = (int)path->a[i + 1];
    }
    return out;
}

static PyObject *status_won, *status_lost, *status_capped;

static PyObject *answer(PyObject *status, PyObject *steps)
{
    if (steps == NULL)
        return NULL;
    return Py_BuildValue("(ON)", status, steps);
}

/* the exception gaps.py unwinds with when the budget is spent */
static void out_of_budget(void)
{
    PyObject *gaps = PyImport_ImportModule("dailydeal.solvers.gaps");
    if (gaps == NULL)
        return;
    PyObject *cls = PyObject_GetAttrString(gaps, "_OutOfBudget");
    Py_DECREF(gaps);
    if (cls == NULL)
        return;
    PyErr_SetNone(cls);
    Py_DECREF(cls);
}

typedef struct {
    Vec moves, nums, lows, path, sleeps;
    KeyVec comp, keys;
} Stacks;

static void free_stacks(Stacks *st)
{
    PyMem_Free(st->moves.a);
    PyMem_Free(st->nums.a);
    PyMem_Free(st->lows.a);
    PyMem_Free(st->path.a);
    PyMem_Free(st->sleeps.a);
    PyMem_Free(st->comp.a);
    PyMem_Free(st->keys.a);
}

#define TRY(x)                                                                                     \
    do {                                                                                           \
        if ((x) < 0)                                                                               \
            goto fail;                                                                             \
    } while (0)

static PyObject *search_last(PyObject *search, PyObject *known, const uint8_t *cells, long long cap)
{
    long long limit, table_limit, left, nodes, max_nodes = -1;
    PyObject *budget = NULL, *tb = NULL, *result = NULL;
    Stacks st;
    memset(&st, 0, sizeof st);
    State s;
    uint8_t kb[KEY_BYTES];

    if (get_long_attr(search, "limit", &limit) < 0)
        return NULL;
    if (api->len(known) > limit && make_room(search) < 0)
        return NULL;
    table_limit = limit;
    if (set_long_attr(search, "table_limit", table_limit) < 0 ||
        get_long_attr(search, "relocations", &left) < 0)
        return NULL;
    for (int i = 0; i < 53; i++)
        s.pos[i] = -1;
    int ng = 0;
    for (int i = 0; i < CELLS; i++) {
        int c = cells[i];
        s.board[i] = c;
        if (c == GAP) {
            if (ng == 4) {
                PyErr_SetString(PyExc_ValueError, "a Gaps position has 4 gaps");
                return NULL;
            }
            s.gaps[ng++] = i;
        } else if (c < GAP) {
            s.pos[c] = i;
        } else {
            PyErr_SetString(PyExc_ValueError, "a cell holds a card 0..51 or a gap (52)");
            return NULL;
        }
    }
    if (ng != 4) {
        PyErr_SetString(PyExc_ValueError, "a Gaps position has 4 gaps");
        return NULL;
    }
    tb = PyObject_GetAttrString(search, "tb");
    if (tb == NULL)
        return NULL;
    if (!PyList_Check(tb) || PyList_GET_SIZE(tb) != 53) {
        PyErr_SetString(PyExc_TypeError, "search.tb is a list of 53 ints");
        goto fail;
    }
    for (int i = 0; i < 53; i++) {
        long v = PyLong_AsLong(PyList_GET_ITEM(tb, i));
        if (v == -1 && PyErr_Occurred())
            goto fail;
        s.tb[i] = (int)v;
    }
    budget = PyObject_GetAttrString(search, "budget");
    if (budget == NULL)
        goto fail;
    {
        PyObject *m = PyObject_GetAttrString(budget, "max_nodes");
        if (m == NULL)
            goto fail;
        if (m != Py_None) {
            max_nodes = PyLong_AsLongLong(m);
            if (max_nodes == -1 && PyErr_Occurred()) {
                Py_DECREF(m);
                goto fail;
            }
        }
        Py_DECREF(m);
    }
    int home = 0;
    for (int t = 0; t < 4; t++)
        if (s.pos[TWOS[t]] % COLS == 0)
            home++;
    Key root = make_key(s.board, home == 4 ? UNLIMITED : (int)left);
    key_bytes(&root, kb);
    int in = api->contains(known, kb);
    if (in < 0)
        goto fail;
    if (in) {
        result = answer(status_lost, PyList_New(0));
        goto done;
    }
    TRY(vec_push(&st.moves, -1));
    int frozen = left == 0 || home == 4;
    int any = moves_of(&s, &st.moves, left != 0, frozen);
    TRY(any);
    if (!any) {
        if (is_won(s.board)) {
            result = answer(status_won, PyList_New(0));
            goto done;
        }
        TRY(api->set(known, kb, DEAD));
        result = answer(status_lost, PyList_New(0));
        goto done;
    }
    if (get_long_attr(search, "nodes", &nodes) < 0)
        goto fail;
    long long stop = nodes + cap + 1;
    long long check = (nodes / CHECK + 1) * CHECK;
    if (max_nodes >= 0 && max_nodes < check)
        check = max_nodes;
    TRY(api->set(known, kb, 0));
    TRY(keys_push(&st.comp, &root));
    TRY(vec_push(&st.nums, 0));
    int32_t counter = 1;
    TRY(vec_push(&st.lows, 0));
    TRY(vec_push(&st.sleeps, 0));
    int limited = left != UNLIMITED;
    Key key = root;
    for (;;) {
        int64_t move = st.moves.a[--st.moves.n];
        if (move < 0) { /* every move of this position is searched */
            int64_t i = -1 - move;
            int64_t low = st.lows.a[--st.lows.n];
            st.sleeps.n--;
            if (low == i) { /* a complete component: all of it is lost */
                Py_ssize_t j = st.nums.n - 1;
                while (j && st.nums.a[j - 1] >= i)
                    j--;
                st.nums.n = j;
                for (Py_ssize_t c = j; c < st.comp.n; c++) {
                    key_bytes(&st.comp.a[c], kb);
                    TRY(api->set(known, kb, DEAD));
                }
                st.comp.n = j;
            } else if (low < st.lows.a[st.lows.n - 1]) {
                st.lows.a[st.lows.n - 1] = low;
            }
            if (st.path.n == 0) {
                TRY(set_long_attr(search, "nodes", nodes));
                result = answer(status_lost, PyList_New(0));
                goto done;
            }
            int src = (int)st.path.a[--st.path.n];
            int card = (int)st.path.a[--st.path.n];
            int dst = s.pos[card];
            if (low == i) { /* the move led to a lost position */
                uint64_t *z = (uint64_t *)&st.sleeps.a[st.sleeps.n - 1];
                *z = fall_asleep(*z, card % 13 == 1 ? card | (dst / COLS) << ROW_SHIFT : card);
            }
            if (limited && src % COLS == 0 && dst % COLS == 0)
                left++; /* a relocation taken back */
            else if (card % 13 == 1 && src % COLS != 0)
                home--; /* a 2 taken back out of column 1 */
            key = st.keys.a[--st.keys.n];
            undo(&s, card, src, dst);
            continue;
        }
        uint64_t z = (uint64_t)st.sleeps.a[st.sleeps.n - 1];
        if (z && asleep(z, move))
            continue;
        int card = (int)(move & CARD_MASK);
        int dst = target(move, &s);
        int src = s.pos[card];
        /* the key after the move */
        Key next = key;
        key_step(&next, card, dst - src);
        int relocation = limited && src % COLS == 0 && dst % COLS == 0;
        if (relocation)
            key_sub_mul(&next, &POW53[48], 1);
        int arrives = card % 13 == 1 && src % COLS != 0; /* a 2 comes to column 1 */
        if (arrives && home == 3 && limited) /* the fourth: the key counts UNLIMITED */
            key_add_mul(&next, &POW53[48], (uint64_t)(UNLIMITED - left));
        int32_t seen;
        key_bytes(&next, kb);
        TRY(api->setdefault(known, kb, counter, &seen));
        if (seen != counter) { /* proved lost, or open (its visit number) */
            if (seen == DEAD)
                st.sleeps.a[st.sleeps.n - 1] = (int64_t)fall_asleep(z, move);
            else if (seen < st.lows.a[st.lows.n - 1])
                st.lows.a[st.lows.n - 1] = seen;
            continue;
        }
        TRY(keys_push(&st.comp, &next));
        TRY(vec_push(&st.nums, counter));
        nodes++;
        if (nodes >= check) {
            TRY(set_long_attr(search, "nodes", nodes));
            PyObject *r = PyObject_CallMethod(budget, "spent", "L", nodes);
            if (r == NULL)
                goto fail;
            int spent = PyObject_IsTrue(r);
            Py_DECREF(r);
            TRY(spent);
            if (spent) {
                TRY(forget(known, &st.comp));
                out_of_budget();
                goto fail;
            }
            if (api->len(known) > table_limit) {
                TRY(make_room(search));
                /* many open positions (never dropped): room for limit / 4 more */
                long long more = (long long)api->len(known) + limit / 4;
                table_limit = limit > more ? limit : more;
                TRY(set_long_attr(search, "table_limit", table_limit));
            }
            check = nodes + CHECK;
            if (max_nodes >= 0 && max_nodes < check)
                check = max_nodes;
        }
        s.board[src] = GAP;
        s.board[dst] = card;
        s.pos[card] = dst;
        replace_gap(s.gaps, dst, src);
        if (relocation)
            left--;
        if (arrives)
            home++;
        TRY(vec_push(&st.moves, -1 - (int64_t)counter));
        frozen = left == 0 || home == 4;
        any = moves_of(&s, &st.moves, left != 0, frozen);
        TRY(any);
        if (!any) { /* blocked */
            while (st.moves.a[--st.moves.n] >= 0) /* its mark */
                ;
            if (is_won(s.board)) {
                TRY(set_long_attr(search, "nodes", nodes));
                TRY(forget(known, &st.comp));
                TRY(vec_push(&st.path, card));
                TRY(vec_push(&st.path, src));
                result = answer(status_won, steps_of(&s, &st.path));
                goto done;
            }
            TRY(api->set(known, kb, DEAD));
            st.comp.n--;
            st.nums.n--;
            st.sleeps.a[st.sleeps.n - 1] = (int64_t)fall_asleep(z, move);
            if (relocation)
                left++;
            if (arrives)
                home--;
            undo(&s, card, src, dst);
            continue;
        }
        if (nodes >= stop) {
            TRY(set_long_attr(search, "nodes", nodes));
            TRY(forget(known, &st.comp));
            result = answer(status_capped, PyList_New(0));
            goto done;
        }
        TRY(vec_push(&st.path, card));
        TRY(vec_push(&st.path, src));
        TRY(keys_push(&st.keys, &key));
        key = next;
        TRY(vec_push(&st.lows, counter));
        TRY(vec_push(&st.sleeps, z ? (int64_t)inherit(z, card, src, dst, s.pos, limited) : 0));
        counter++;
    }
fail:
    result = NULL;
done:
    free_stacks(&st);
    Py_XDECREF(budget);
    Py_XDECREF(tb);
    return result;
}

/* last_round(search, cells, cap): gaps._Search.last_round(search, cells, cap) */
static PyObject *last_round(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "last_round(search, cells, cap) takes 3 arguments");
        return NULL;
    }
    PyObject *search = args[0], *known = PyObject_GetAttrString(search, "known");
    if (known == NULL)
        return NULL;
    PyObject *result;
    if (api == NULL || Py_TYPE(known) != api->type) { /* the reference */
        result = PyObject_CallMethod(search, "last_round", "OO", args[1], args[2]);
    } else {
        Py_buffer view;
        long long cap = PyLong_AsLongLong(args[2]);
        if ((cap == -1 && PyErr_Occurred()) || PyObject_GetBuffer(args[1], &view, PyBUF_SIMPLE) < 0) {
            Py_DECREF(known);
            return NULL;
        }
        if (view.len != CELLS) {
            PyErr_SetString(PyExc_ValueError, "a Gaps position is 52 cells");
            result = NULL;
        } else {
            result = search_last(search, known, (const uint8_t *)view.buf, cap);
        }
        PyBuffer_Release(&view);
    }
    Py_DECREF(known);
    return result;
}

static PyMethodDef module_methods[] = {
    {"last_round", (PyCFunction)(void (*)(void))last_round, METH_FASTCALL,
     "last_round(search, cells, cap): gaps._Search.last_round, in C."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef gaps_last_module = {
    PyModuleDef_HEAD_INIT,
    "dailydeal.solvers.gaps_last",
    "The last round of the Gaps search, in C (gaps.py's _Search.last_round is the reference).",
    -1,
    module_methods,
};

PyMODINIT_FUNC PyInit_gaps_last(void)
{
    Key one;
    memset(&one, 0, sizeof one);
    one.w[0] = 1;
    POW53[0] = one;
    for (int i = 1; i < 49; i++) {
        Key k;
        memset(&k, 0, sizeof k);
        key_add_mul(&k, &POW53[i - 1], 53);
        POW53[i] = k;
    }
    status_won = PyUnicode_InternFromString("won");
    status_lost = PyUnicode_InternFromString("lost");
    status_capped = PyUnicode_InternFromString("capped");
    if (status_won == NULL || status_lost == NULL || status_capped == NULL)
        return NULL;
    /* the table's capsule; without it (the Python table runs) the reference does */
    /* (PyCapsule_Import reads attributes down from "dailydeal": the module is imported
     * first, so that it is an attribute of its package) */
    PyObject *table = PyImport_ImportModule("dailydeal.solvers.table");
    Py_XDECREF(table);
    TableAPI *a = table == NULL ? NULL : PyCapsule_Import(TABLE_API_NAME, 0);
    if (a == NULL)
        PyErr_Clear();
    else if (a->version == TABLE_API_VERSION)
        api = a;
    PyObject *m = PyModule_Create(&gaps_last_module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddIntConstant(m, "NATIVE", 1) < 0 ||
        PyModule_AddIntConstant(m, "TABLE", api != NULL) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
