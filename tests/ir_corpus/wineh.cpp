// C++ exceptions without the standard library, so that Windows targets (funclet pads:
// catchswitch, catchpad, cleanuppad) and 32-bit Windows (inalloca) compile here too.
// ir-corpus-variant: --target=x86_64-pc-windows-msvc
// ir-corpus-variant: --target=i686-pc-windows-msvc

struct Resource {
    int *counter;
    explicit Resource(int *c) : counter(c) { ++*counter; }
    Resource(const Resource &other) : counter(other.counter) { ++*counter; }
    ~Resource() { --*counter; }
};

int consume(Resource r, int x) {
    if (x < 0)
        throw x;
    return *r.counter + x;
}

int guarded(int *counter, int x) {
    Resource r(counter);
    try {
        return consume(r, x);
    } catch (int e) {
        return e * 2;
    } catch (...) {
        return -1;
    }
}

int nested(int *counter, int x) {
    try {
        try {
            Resource inner(counter);
            return consume(inner, x - 5);
        } catch (int) {
            throw;
        }
    } catch (int e) {
        return e;
    }
}
