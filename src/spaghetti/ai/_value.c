/* The learned evaluation's network on one observation (spaghetti.ai.value).

   value(observation, w1t, b1, w2, b2) -> float
   value_from(observation, last, sums, w1q, b1, w2, b2) -> float
   values_from(observation, last, sums, w1qs, b1, w2, b2) -> list of floats

   observation: one signed byte a feature (the encoder's buffer), n of them;
   w1t: float32, n rows of h (the first layer, one row a feature); b1, w2: float32, h each.
   The first layer adds a row for each feature that is not zero, in order, in double
   precision; then the rectified units times w2 from b2, and tanh. spaghetti/ai/value.py
   computes the same sums in the same order in Python where this is not built, so the two
   give the same number to the last bit (built without fused multiply-adds: setup.py). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <string.h>

#define MAX_HIDDEN 1024

static PyObject *value(PyObject *self, PyObject *args) {
    Py_buffer obs, w1t, b1, w2;
    double b2;
    if (!PyArg_ParseTuple(args, "y*y*y*y*d", &obs, &w1t, &b1, &w2, &b2))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t n = obs.len, h = b1.len / (Py_ssize_t)sizeof(float);
    if (h < 1 || h > MAX_HIDDEN || b1.len != h * (Py_ssize_t)sizeof(float)
        || w2.len != b1.len || w1t.len != n * h * (Py_ssize_t)sizeof(float)) {
        PyErr_SetString(PyExc_ValueError, "value: the weights do not fit the observation");
        goto done;
    }
    {
        const signed char *x = (const signed char *)obs.buf;
        const float *w = (const float *)w1t.buf;
        const float *bias = (const float *)b1.buf, *out = (const float *)w2.buf;
        double acc[MAX_HIDDEN];
        for (Py_ssize_t j = 0; j < h; j++)
            acc[j] = (double)bias[j];
        for (Py_ssize_t i = 0; i < n; i++) {
            if (x[i] == 0)
                continue;
            double xi = (double)x[i];
            const float *row = w + i * h;
            for (Py_ssize_t j = 0; j < h; j++)
                acc[j] += xi * (double)row[j];
        }
        double total = b2;
        for (Py_ssize_t j = 0; j < h; j++)
            if (acc[j] > 0.0)
                total += acc[j] * (double)out[j];
        result = PyFloat_FromDouble(tanh(total));
    }
done:
    PyBuffer_Release(&obs);
    PyBuffer_Release(&w1t);
    PyBuffer_Release(&b1);
    PyBuffer_Release(&w2);
    return result;
}

/* The network's output from one seat's first-layer sums (whole numbers of 2**-24). */
static double output(const double *acc, const float *bias, const float *out, Py_ssize_t h,
                     double b2) {
    double total = b2;
    for (Py_ssize_t j = 0; j < h; j++) {
        double a = (double)bias[j] + acc[j] * (1.0 / 16777216.0); /* exact */
        if (a > 0.0)
            total += a * (double)out[j];
    }
    return tanh(total);
}

/* (A one-hot feature changes by one: its row added or taken off without a product.) */
#define ADD_ROW(OP)                                                                       \
    for (Py_ssize_t s = 0; s < seats; s++) {                                              \
        const int *row = w[s] + i * h;                                                    \
        double *a = acc[s];                                                               \
        for (Py_ssize_t j = 0; j < h; j++)                                                \
            a[j] OP;                                                                      \
    }

/* Each seat's first-layer sums (``acc``, h doubles holding whole numbers of 2**-24) brought
   from the observation ``seen`` (n bytes) to ``x``: each seat adds its row (``w``: int32, n rows
   of h, each weight times 2**24) of every feature that changed, times the change; ``seen``
   becomes ``x``. Every partial sum is one of some observation's sums, below 2**53 in size
   (ValueNet.exact_sums), so each product and sum is exact and equals the integer one; as
   doubles the compiler adds them two or four at a time.
   (Built twice where the compiler can: for processors with AVX2, four sums an instruction,
   and for any; the loader picks one. The sums are exact either way, so the same.) */
#if defined(__GNUC__) && defined(__x86_64__) && defined(__GLIBC__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default")))
#endif
static void add_changes(const signed char *x, signed char *seen, Py_ssize_t n,
                        Py_ssize_t h, Py_ssize_t seats, double *const *acc,
                        const int *const *w) {
    Py_ssize_t i = 0;
    while (i < n) {
        /* (Sixteen bytes at a time past what has not changed: nearly all of them.) */
        if (i + 16 <= n) {
            unsigned long long a0, a1, s0, s1;
            memcpy(&a0, x + i, 8);
            memcpy(&a1, x + i + 8, 8);
            memcpy(&s0, seen + i, 8);
            memcpy(&s1, seen + i + 8, 8);
            if (((a0 ^ s0) | (a1 ^ s1)) == 0) {
                i += 16;
                continue;
            }
        }
        Py_ssize_t end = i + 16 <= n ? i + 16 : n;
        for (; i < end; i++) {
            int change = (int)x[i] - (int)seen[i];
            if (change == 0)
                continue;
            if (change == 1) {
                ADD_ROW(+= (double)row[j])
            } else if (change == -1) {
                ADD_ROW(-= (double)row[j])
            } else {
                const double d = (double)change;
                ADD_ROW(+= d * (double)row[j])
            }
            seen[i] = x[i];
        }
    }
}

/* The same value, from the first layer's sums of the last observation seen (``last``, n bytes,
   and ``sums``, h doubles holding whole numbers, both kept by the caller and brought up to
   date here): only the features that changed are added, as whole numbers (``w1q``: int32, n
   rows of h, each weight times 2**24, exact where the weights are half precision). Where no
   partial sum of value() can round (ValueNet.exact_sums), its sums are these, exactly: the
   same value to the last bit, at the cost of the few features a position differs by from the
   last one. */
static PyObject *value_from(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    /* (Called at every leaf of a search: the arguments are read as the objects the learned
       evaluation hands over, bytes and bytearrays, without the buffer protocol's requests
       and releases, which cost as much as the sums of a few changed features.) */
    if (nargs != 7 || !PyBytes_Check(args[0]) || !PyByteArray_Check(args[1])
        || !PyByteArray_Check(args[2]) || !PyBytes_Check(args[3]) || !PyBytes_Check(args[4])
        || !PyBytes_Check(args[5])) {
        PyErr_SetString(PyExc_TypeError, "value_from(observation: bytes, last: bytearray, "
                        "sums: bytearray, w1q: bytes, b1: bytes, w2: bytes, b2: float)");
        return NULL;
    }
    double b2 = PyFloat_AsDouble(args[6]);
    if (b2 == -1.0 && PyErr_Occurred())
        return NULL;
    Py_ssize_t n = PyBytes_GET_SIZE(args[0]), b1_len = PyBytes_GET_SIZE(args[4]);
    Py_ssize_t h = b1_len / (Py_ssize_t)sizeof(float);
    if (h < 1 || b1_len != h * (Py_ssize_t)sizeof(float) || PyBytes_GET_SIZE(args[5]) != b1_len
        || PyByteArray_GET_SIZE(args[1]) != n
        || PyByteArray_GET_SIZE(args[2]) != h * (Py_ssize_t)sizeof(double)
        || PyBytes_GET_SIZE(args[3]) != n * h * (Py_ssize_t)sizeof(int)) {
        PyErr_SetString(PyExc_ValueError, "value_from: the weights do not fit the observation");
        return NULL;
    }
    const signed char *x = (const signed char *)PyBytes_AS_STRING(args[0]);
    signed char *seen = (signed char *)PyByteArray_AS_STRING(args[1]);
    double *acc = (double *)PyByteArray_AS_STRING(args[2]);
    const int *w = (const int *)PyBytes_AS_STRING(args[3]);
    const float *bias = (const float *)PyBytes_AS_STRING(args[4]);
    const float *out = (const float *)PyBytes_AS_STRING(args[5]);
    add_changes(x, seen, n, h, 1, &acc, &w);
    return PyFloat_FromDouble(output(acc, bias, out, h, b2));
}

/* value_from for several seats that read one observation, each through its own first layer
   (``w1qs``, a list: the rows of each in the order of the observation's features) and with its
   own sums (``sums``, a list of bytearrays); ``last`` is the observation all of them read last.
   One pass finds what changed; each seat adds its rows of it. A list of the seats' values,
   each the one value_from would give to the last bit. */
static PyObject *values_from(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 7 || !PyBytes_Check(args[0]) || !PyByteArray_Check(args[1])
        || !PyList_Check(args[2]) || !PyList_Check(args[3]) || !PyBytes_Check(args[4])
        || !PyBytes_Check(args[5])) {
        PyErr_SetString(PyExc_TypeError, "values_from(observation: bytes, last: bytearray, "
                        "sums: list[bytearray], w1qs: list[bytes], b1: bytes, w2: bytes, "
                        "b2: float)");
        return NULL;
    }
    double b2 = PyFloat_AsDouble(args[6]);
    if (b2 == -1.0 && PyErr_Occurred())
        return NULL;
    Py_ssize_t n = PyBytes_GET_SIZE(args[0]), b1_len = PyBytes_GET_SIZE(args[4]);
    Py_ssize_t h = b1_len / (Py_ssize_t)sizeof(float), seats = PyList_GET_SIZE(args[2]);
    if (h < 1 || b1_len != h * (Py_ssize_t)sizeof(float) || PyBytes_GET_SIZE(args[5]) != b1_len
        || PyByteArray_GET_SIZE(args[1]) != n || seats < 1 || seats > 8
        || PyList_GET_SIZE(args[3]) != seats) {
        PyErr_SetString(PyExc_ValueError, "values_from: the weights do not fit the observation");
        return NULL;
    }
    double *acc[8];
    const int *w[8];
    for (Py_ssize_t s = 0; s < seats; s++) {
        PyObject *sums = PyList_GET_ITEM(args[2], s), *rows = PyList_GET_ITEM(args[3], s);
        if (!PyByteArray_Check(sums) || !PyBytes_Check(rows)
            || PyByteArray_GET_SIZE(sums) != h * (Py_ssize_t)sizeof(double)
            || PyBytes_GET_SIZE(rows) != n * h * (Py_ssize_t)sizeof(int)) {
            PyErr_SetString(PyExc_ValueError,
                            "values_from: the weights do not fit the observation");
            return NULL;
        }
        acc[s] = (double *)PyByteArray_AS_STRING(sums);
        w[s] = (const int *)PyBytes_AS_STRING(rows);
    }
    const signed char *x = (const signed char *)PyBytes_AS_STRING(args[0]);
    signed char *seen = (signed char *)PyByteArray_AS_STRING(args[1]);
    add_changes(x, seen, n, h, seats, acc, w);
    const float *bias = (const float *)PyBytes_AS_STRING(args[4]);
    const float *out = (const float *)PyBytes_AS_STRING(args[5]);
    PyObject *values = PyList_New(seats);
    if (values == NULL)
        return NULL;
    for (Py_ssize_t s = 0; s < seats; s++) {
        PyObject *v = PyFloat_FromDouble(output(acc[s], bias, out, h, b2));
        if (v == NULL) {
            Py_DECREF(values);
            return NULL;
        }
        PyList_SET_ITEM(values, s, v);
    }
    return values;
}

static PyMethodDef methods[] = {
    {"value", value, METH_VARARGS,
     "value(observation, w1t, b1, w2, b2) -> float: the network on one observation."},
    {"value_from", (PyCFunction)(void (*)(void))value_from, METH_FASTCALL,
     "value_from(observation, last, sums, w1q, b1, w2, b2) -> float: the same value, from the "
     "first layer's sums of the last observation (kept up to date)."},
    {"values_from", (PyCFunction)(void (*)(void))values_from, METH_FASTCALL,
     "values_from(observation, last, sums, w1qs, b1, w2, b2) -> list: value_from for several "
     "seats that read one observation, each through its own first layer."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_value",
    "The learned evaluation's network on one observation, in C (spaghetti.ai.value).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__value(void) { return PyModule_Create(&module); }
