/* Recursion over a binary tree of heap nodes: product of path weights, depth-first. */
#include <stdlib.h>
#define N 7
static double X0[N] = {0.9, 1.1, 0.8, 1.3, 0.7, 1.2, 0.95};
#include "harness.h"

struct node { double w; struct node *left, *right; };

static struct node *build(const double *x, int i, int n) {
    if (i >= n) return NULL;
    struct node *t = malloc(sizeof *t);
    t->w = x[i];
    t->left = build(x, 2 * i + 1, n);
    t->right = build(x, 2 * i + 2, n);
    return t;
}
static double paths(const struct node *t, double acc) {
    if (!t) return 0.0;
    double here = acc * t->w;
    if (!t->left && !t->right) return here;
    return paths(t->left, here) + paths(t->right, here) + 0.1 * here * here;
}
static void release(struct node *t) {
    if (!t) return;
    release(t->left); release(t->right); free(t);
}
double tree(const double *x, int n) {
    struct node *root = build(x, 0, n);
    double r = paths(root, 1.0);
    release(root);
    return r;
}
double objective(double *x) { return tree(x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)tree, enzyme_dup, x, g, enzyme_const, N);
}
