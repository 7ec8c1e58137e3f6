// Exceptions (invoke, landingpad, resume, cleanups, catch-all, rethrow), virtual calls,
// templates, lambdas, containers, static guards and thread_local objects.
// ir-corpus-variant: -g
#include <algorithm>
#include <complex>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

struct Shape {
    virtual ~Shape() = default;
    virtual double area() const = 0;
};

struct Circle : Shape {
    double r;
    explicit Circle(double r) : r(r) {}
    double area() const override { return 3.14159 * r * r; }
};

struct Square : Shape {
    double s;
    explicit Square(double s) : s(s) {}
    double area() const override {
        if (s < 0)
            throw std::domain_error("negative side");
        return s * s;
    }
};

double total_area(const std::vector<std::unique_ptr<Shape>> &shapes) {
    double total = 0;
    for (const auto &shape : shapes) {
        try {
            total += shape->area();
        } catch (const std::domain_error &) {
            total -= 1;
        }
    }
    return total;
}

int parse_all(const std::vector<std::string> &words) {
    int sum = 0;
    for (const auto &w : words) {
        try {
            sum += std::stoi(w);
        } catch (const std::invalid_argument &) {
            sum -= 1;
        } catch (...) {
            throw;
        }
    }
    return sum;
}

struct Guard {
    int *count;
    explicit Guard(int *c) : count(c) { ++*count; }
    ~Guard() { --*count; }
};

int cleanup(int *count, bool fail) {
    Guard g(count);
    std::string s = "value";
    if (fail)
        throw std::runtime_error(s);
    return (int)s.size();
}

template <typename T> T accumulate_sorted(std::vector<T> v) {
    std::sort(v.begin(), v.end(), [](T a, T b) { return a > b; });
    T acc{};
    for (auto x : v)
        acc = acc * T(2) + x;
    return acc;
}

template double accumulate_sorted<double>(std::vector<double>);
template long accumulate_sorted<long>(std::vector<long>);

std::complex<double> cpoly(std::complex<double> z) { return z * z + std::complex<double>(1, -2) * z; }

int counted() {
    static std::map<int, std::string> names = {{1, "one"}, {2, "two"}};
    thread_local int calls = 0;
    return (int)names.size() + ++calls;
}

double apply(const std::function<double(double)> &f, double x) { return f(f(x)); }

double use_apply(double k) {
    return apply([k](double x) { return x * k; }, 3.0);
}

int main() {
    std::vector<std::unique_ptr<Shape>> shapes;
    shapes.push_back(std::make_unique<Circle>(1.0));
    shapes.push_back(std::make_unique<Square>(-2.0));
    int count = 0;
    try {
        cleanup(&count, true);
    } catch (const std::exception &e) {
        count += 10;
    }
    return (int)total_area(shapes) + parse_all({"1", "x", "3"}) + count + counted();
}
