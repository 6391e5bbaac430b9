/* The learned evaluation's network on one observation (spaghetti.ai.value).

   value(observation, w1t, b1, w2, b2) -> float

   observation: one signed byte a feature (the encoder's buffer), n of them;
   w1t: float32, n rows of h (the first layer, one row a feature); b1, w2: float32, h each.
   The first layer adds a row for each feature that is not zero, in order, in double
   precision; then the rectified units times w2 from b2, and tanh. spaghetti/ai/value.py
   computes the same sums in the same order in Python where this is not built, so the two
   give the same number to the last bit (built without fused multiply-adds: setup.py). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>

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

static PyMethodDef methods[] = {
    {"value", value, METH_VARARGS,
     "value(observation, w1t, b1, w2, b2) -> float: the network on one observation."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_value",
    "The learned evaluation's network on one observation, in C (spaghetti.ai.value).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__value(void) { return PyModule_Create(&module); }
