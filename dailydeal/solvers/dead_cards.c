/* The Gaps solver's dead-card test in C: dead_cards.py is the reference (the proof, and
 * the same answer for every board: tests/test_solver_gaps.py compares both). Its cost is
 * reading the 52 cells of the list; the fixpoint runs on the bits of one word. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define GAP 52
#define COLS 13
#define CELLS 52

/* a cell's int: read directly where the layout is known (3.11: an int 0..52 is one digit,
 * or none for 0), PyLong_AsLong's checks and calls being most of the test's cost */
static inline long cell(PyObject *o)
{
#if PY_VERSION_HEX < 0x030C0000
    if (PyLong_CheckExact(o)) {
        Py_ssize_t n = Py_SIZE(o);
        if (n == 0)
            return 0;
        if (n == 1)
            return (long)((PyLongObject *)o)->ob_digit[0];
    }
#endif
    return PyLong_AsLong(o);
}

#define BIT(c) ((uint64_t)1 << (c))
#define TWOS (BIT(1) | BIT(14) | BIT(27) | BIT(40))

/* SUCCESSOR_BIT[c]: the bit of the card that may go right of ``c``, 0 right of a king or
 * of a gap (rules.gaps.SUCCESSOR as a set) */
static uint64_t SUCCESSOR_BIT[GAP + 1];

/* stuck(board, most_live, relocate): see dead_cards.py. The sets of cards are bits of one
 * word: each card added is taken off a frontier once, and adds the cards it may let
 * move (``enables``), with no branch per card that the processor could mispredict. */
static PyObject *stuck(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "stuck(board, most_live, relocate) takes 3 arguments");
        return NULL;
    }
    PyObject *list = args[0];
    if (!PyList_Check(list) || PyList_GET_SIZE(list) != CELLS) {
        PyErr_SetString(PyExc_TypeError, "the board is a list of the 52 cells");
        return NULL;
    }
    long most_live = PyLong_AsLong(args[1]);
    if (most_live == -1 && PyErr_Occurred())
        return NULL;
    int relocate = PyObject_IsTrue(args[2]);
    if (relocate < 0)
        return NULL;
    unsigned char board[CELLS];
    int pos[GAP + 1];
    int gaps[CELLS];
    int ngaps = 0;
    uint64_t seen = 0;
    for (int i = 0; i < CELLS; i++) {
        long c = cell(PyList_GET_ITEM(list, i));
        if (c == -1 && PyErr_Occurred())
            return NULL;
        if (c < 0 || c > GAP || (c != GAP && (seen & BIT(c)))) {
            PyErr_SetString(PyExc_ValueError, "a cell holds a card 0..51 (each once) or 52");
            return NULL;
        }
        board[i] = (unsigned char)c;
        if (c == GAP) {
            gaps[ngaps++] = i;
        } else {
            pos[c] = i;
            seen |= BIT(c);
        }
    }
    long live = 0;
    for (int k = 0; k < ngaps; k++) {
        int g = gaps[k];
        live += g % COLS == 0 || SUCCESSOR_BIT[board[g - 1]] != 0;
    }
    if (live > most_live)
        Py_RETURN_FALSE;
    /* the 2s a column-1 gap may take: those not in column 1, or (relocate) all */
    uint64_t twos = 0;
    for (int t = 1; t < CELLS; t += 13)
        if ((seen & BIT(t)) && (relocate || pos[t] % COLS != 0))
            twos |= BIT(t);
    /* per card on the board: the cards it may let move once it moves (its successor, and
     * the card that may fill the cell it leaves); and the cards that prove the position
     * lost if they never move (in another column than a win leaves them, or in a row
     * headed by a 2 of another suit, which must never move either: the final test) */
    uint64_t enables[GAP + 1] = {0}; /* 0 for a card not on the board: it never moves */
    uint64_t misplaced = 0;
    for (int card = 1; card < CELLS; card++) {
        if (!(seen & BIT(card)))
            continue; /* an ace, or a board with a card missing */
        int s = pos[card];
        int col = s % COLS;
        enables[card] = SUCCESSOR_BIT[card] | (col == 0 ? twos : SUCCESSOR_BIT[board[s - 1]]);
        int first = board[s - col];
        if (col != card % 13 - 1 || (first % 13 == 1 && first / 13 != card / 13))
            misplaced |= BIT(card);
    }
    if (misplaced == 0) /* won */
        Py_RETURN_FALSE;
    uint64_t marked = 0;
    for (int k = 0; k < ngaps; k++) {
        int g = gaps[k];
        marked |= g % COLS == 0 ? twos : SUCCESSOR_BIT[board[g - 1]];
    }
    uint64_t frontier = marked;
    while (frontier) {
        if ((misplaced & ~marked) == 0) /* every card that could prove it may move */
            Py_RETURN_FALSE;
        int x = __builtin_ctzll(frontier);
        frontier &= frontier - 1;
        uint64_t added = enables[x] & ~marked;
        marked |= added;
        frontier |= added;
    }
    for (uint64_t rest = misplaced & ~marked; rest; rest &= rest - 1) {
        int card = __builtin_ctzll(rest);
        int s = pos[card];
        if (s % COLS != card % 13 - 1 || !(marked & BIT(board[s - s % COLS])))
            Py_RETURN_TRUE;
    }
    Py_RETURN_FALSE;
}

static PyMethodDef module_methods[] = {
    {"stuck", (PyCFunction)(void (*)(void))stuck, METH_FASTCALL, NULL},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef dead_cards_module = {
    PyModuleDef_HEAD_INIT,
    "dailydeal.solvers.dead_cards",
    "The Gaps solver's dead-card test, in C (dead_cards.py is the reference).",
    -1,
    module_methods,
};

PyMODINIT_FUNC PyInit_dead_cards(void)
{
    for (int c = 0; c < GAP; c++)
        SUCCESSOR_BIT[c] = c % 13 == 12 ? 0 : BIT(c + 1);
    SUCCESSOR_BIT[GAP] = 0;
    PyObject *m = PyModule_Create(&dead_cards_module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddIntConstant(m, "GAP", GAP) < 0 || PyModule_AddIntConstant(m, "COLS", COLS) < 0 ||
        PyModule_AddIntConstant(m, "NATIVE", 1) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
