/* A singly linked list of heap nodes holding active values, built by a push function kept as a call. */
#include <stdlib.h>
#define N 5
static double X0[N] = {0.8, -0.5, 1.3, 0.6, -1.1};
#include "harness.h"

struct node { double value; int index; struct node *next; };

__attribute__((noinline)) static struct node *push(struct node *head, double value, int index) {
    struct node *n = malloc(sizeof *n);
    n->value = value;
    n->index = index;
    n->next = head;
    return n;
}
double list_energy(const double *x, int n) {
    struct node *head = NULL;
    for (int i = 0; i < n; i++) head = push(head, x[i] * x[i], i);
    double e = 0.0;
    for (struct node *p = head; p && p->next; p = p->next) e += p->value * p->next->value * (p->index + 1);
    while (head) { struct node *next = head->next; free(head); head = next; }
    return e;
}
double objective(double *x) { return list_energy(x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)list_energy, enzyme_dup, x, g, enzyme_const, N);
}
