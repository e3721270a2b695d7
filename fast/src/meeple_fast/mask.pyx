# cython: language_level=3, boundscheck=True, wraparound=False
"""Action masks in compiled code: a new zeroed int8 array, 1 at each legal id.

The same arrays as :func:`meeple.adapters.masks.mask_writer`'s Python path
(``template.copy()`` then ``put``), in one call instead of three numpy ones.
"""

cimport cython
from libc.string cimport memset
from cpython.buffer cimport PyBUF_WRITABLE, PyBuffer_Release, PyObject_GetBuffer


@cython.final
cdef class MaskWriter:
    """Writes masks the size of ``template`` (a zeroed int8 array)."""

    cdef object template, empty, dtype
    cdef Py_ssize_t length

    def __init__(self, template):
        if str(template.dtype) != "int8" or template.ndim != 1:
            raise TypeError("a mask template is a flat int8 array")
        if template.any():
            raise ValueError("a mask template is all zeros")
        self.template = template
        # A new mask at every observation: numpy's empty, then zeroed here (cheaper than
        # template.copy()).
        import numpy
        self.empty, self.dtype, self.length = numpy.empty, template.dtype, template.size

    def mask(self, list legal):
        """A new mask: 1 at each id in ``legal`` (IndexError for an id outside it)."""
        mask = self.empty(self.length, self.dtype)
        cdef Py_buffer view
        cdef Py_ssize_t action
        cdef signed char* out
        PyObject_GetBuffer(mask, &view, PyBUF_WRITABLE)
        try:
            out = <signed char*>view.buf
            memset(out, 0, view.len)
            for item in legal:
                action = item
                if action < 0 or action >= view.len:
                    raise IndexError(f"action {action} is outside the mask")
                out[action] = 1
        finally:
            PyBuffer_Release(&view)
        return mask
