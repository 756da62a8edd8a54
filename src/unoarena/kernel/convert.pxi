# The Python layer keeps its arrays in named tuples (State, Tables, Tracker, Vec); an entry
# point takes a view of each. The view of the last few tuples is kept, so a loop of calls on
# the same table pays for it once.
cdef dict _views = {}


cdef object _view(object src, type cls):
    key = (id(src), cls)
    hit = _views.get(key)
    if hit is not None and hit[0] is src:
        return hit[1]
    if len(_views) >= 64:
        _views.clear()
    view = cls(src)
    _views[key] = (src, view)
    return view


cdef CState _as_CState(object src):
    return <CState>_view(src, CState)


cdef CTables _as_CTables(object src):
    return <CTables>_view(src, CTables)


cdef CTracker _as_CTracker(object src):
    return <CTracker>_view(src, CTracker)


cdef CVec _as_CVec(object src):
    return <CVec>_view(src, CVec)
