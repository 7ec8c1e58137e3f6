#ifndef NUM_LINALG_H
#define NUM_LINALG_H

/* Dense row-major matrix owning its storage. */
struct matrix {
    int rows;
    int cols;
    double *data;
};

struct matrix *matrix_alloc(int rows, int cols);
void matrix_free(struct matrix *m);
double *matrix_at(struct matrix *m, int i, int j);
struct matrix *matrix_copy(const struct matrix *m);
void matrix_mul_vec(const struct matrix *m, const double *x, double *y);

/* LU factorization with partial pivoting, in place. perm receives the row order.
   Returns 0 on success, -1 if the matrix is numerically singular. */
int lu_decompose(struct matrix *a, int *perm);
void lu_solve(const struct matrix *lu, const int *perm, const double *b, double *x);
double lu_determinant(const struct matrix *lu, const int *perm);

double vec_norm2(const double *x, int n);

#endif
