#pragma once

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <vector>

namespace epi {

// Fixed-width state vectors recorded over time.
template <typename T>
class TimeSeries {
public:
    explicit TimeSeries(std::size_t width) : width_(width) {}

    void push(T t, const std::vector<T> &state)
    {
        if (state.size() != width_)
            throw std::length_error("state width does not match the series");
        times_.push_back(t);
        values_.insert(values_.end(), state.begin(), state.end());
    }

    std::size_t size() const { return times_.size(); }
    std::size_t width() const { return width_; }
    T time(std::size_t i) const { return times_.at(i); }
    T value(std::size_t i, std::size_t component) const { return values_.at(i * width_ + component); }

    // Index of the sample where the component peaks.
    std::size_t argmax(std::size_t component) const
    {
        std::size_t best = 0;
        for (std::size_t i = 1; i < size(); ++i)
            if (value(i, component) > value(best, component))
                best = i;
        return best;
    }

    template <typename F>
    T integrate(std::size_t component, F weight) const
    {
        T sum{};
        for (std::size_t i = 1; i < size(); ++i) {
            T dt = times_[i] - times_[i - 1];
            sum += dt * (weight(value(i - 1, component)) + weight(value(i, component))) / T(2);
        }
        return sum;
    }

private:
    std::size_t width_;
    std::vector<T> times_;
    std::vector<T> values_;
};

// Runge-Kutta steppers, selected at compile time.
struct Euler {
    static constexpr const char *name = "euler";
    template <typename Rhs>
    static void step(Rhs &&rhs, double t, double h, std::vector<double> &y)
    {
        std::vector<double> k(y.size());
        rhs(t, y, k);
        for (std::size_t i = 0; i < y.size(); ++i)
            y[i] += h * k[i];
    }
};

struct Heun {
    static constexpr const char *name = "heun";
    template <typename Rhs>
    static void step(Rhs &&rhs, double t, double h, std::vector<double> &y)
    {
        std::vector<double> k1(y.size()), k2(y.size()), tmp(y.size());
        rhs(t, y, k1);
        for (std::size_t i = 0; i < y.size(); ++i)
            tmp[i] = y[i] + h * k1[i];
        rhs(t + h, tmp, k2);
        for (std::size_t i = 0; i < y.size(); ++i)
            y[i] += 0.5 * h * (k1[i] + k2[i]);
    }
};

struct RungeKutta4 {
    static constexpr const char *name = "rk4";
    template <typename Rhs>
    static void step(Rhs &&rhs, double t, double h, std::vector<double> &y)
    {
        const std::size_t n = y.size();
        std::vector<double> k1(n), k2(n), k3(n), k4(n), tmp(n);
        rhs(t, y, k1);
        for (std::size_t i = 0; i < n; ++i)
            tmp[i] = y[i] + 0.5 * h * k1[i];
        rhs(t + 0.5 * h, tmp, k2);
        for (std::size_t i = 0; i < n; ++i)
            tmp[i] = y[i] + 0.5 * h * k2[i];
        rhs(t + 0.5 * h, tmp, k3);
        for (std::size_t i = 0; i < n; ++i)
            tmp[i] = y[i] + h * k3[i];
        rhs(t + h, tmp, k4);
        for (std::size_t i = 0; i < n; ++i)
            y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
    }
};

} // namespace epi
