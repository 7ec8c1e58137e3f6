// Numeric C++: templates over arrays, std algorithms, atomics on doubles, noexcept code.
// ir-corpus-variant: -ffast-math -march=x86-64-v3
// ir-corpus-variant: -fno-exceptions
#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <numeric>
#include <vector>

template <int N> struct Vec {
    std::array<double, N> v{};
    Vec operator+(const Vec &o) const noexcept {
        Vec r;
        for (int i = 0; i < N; i++)
            r.v[i] = v[i] + o.v[i];
        return r;
    }
    double norm() const noexcept {
        return std::sqrt(std::inner_product(v.begin(), v.end(), v.begin(), 0.0));
    }
};

double norm_sum(const Vec<3> &a, const Vec<3> &b) { return (a + b).norm(); }
double norm8(const Vec<8> &a) { return (a + a).norm(); }

std::atomic<double> accumulator{0.0};

void accumulate(const std::vector<double> &xs) {
    for (double x : xs) {
        double old = accumulator.load(std::memory_order_relaxed);
        while (!accumulator.compare_exchange_weak(old, old + x, std::memory_order_relaxed))
            ;
    }
}

double transform_reduce(const std::vector<float> &a, const std::vector<float> &b) {
    return std::transform_reduce(a.begin(), a.end(), b.begin(), 0.0, std::plus<>(),
                                 [](float x, float y) { return double(x) * y; });
}

std::vector<double> softmax(std::vector<double> v) {
    double m = *std::max_element(v.begin(), v.end());
    double s = 0;
    for (auto &x : v) {
        x = std::exp(x - m);
        s += x;
    }
    for (auto &x : v)
        x /= s;
    return v;
}

struct Matrix {
    int n;
    std::vector<double> a;
    explicit Matrix(int n) : n(n), a(size_t(n) * n) {}
    double &at(int i, int j) { return a[size_t(i) * n + j]; }
};

void matmul(Matrix &c, Matrix &a, Matrix &b) {
    for (int i = 0; i < c.n; i++)
        for (int k = 0; k < c.n; k++)
            for (int j = 0; j < c.n; j++)
                c.at(i, j) += a.at(i, k) * b.at(k, j);
}
