/* ADBench bundle adjustment: reprojection and weight residuals of cameras, points and weights. */
#ifndef BA_H
#define BA_H

#define BA_CAM_PARAMS 11   /* rotation (3, angle-axis), centre (3), focal, principal point (2), radial (2) */
#define BA_ROW_NONZEROS (BA_CAM_PARAMS + 3 + 1)

struct ba_input {
    int n, m, p;        /* cameras, points, observations */
    double *cams;       /* 11*n */
    double *X;          /* 3*m */
    double *w;          /* p weights */
    int *obs;           /* 2*p (camera, point) index pairs */
    double *feats;      /* 2*p observed image coordinates */
};

/* Reads the ADBench text format: one camera, point, weight and feature, replicated as ADBench does. */
struct ba_input read_ba(const char *path);

/* err[0..1] = w * (projection of X by cam - feat). */
void ba_reproj_error(const double *cam, const double *X, const double *w, const double *feat,
                     double *err);

/* 1 - w^2 */
double ba_weight_error(double w);

/* All residuals: reproj_err (2*p) and w_err (p). */
void ba_objective(const struct ba_input *in, double *reproj_err, double *w_err);

#endif
