/* ADBench bundle adjustment objective: for observation i of point X by camera cam,
 *
 *   reproj_err_i = w_i * (f * distort(p(R(r) (X - C))) + (u0, v0) - feat_i),   w_err_i = 1 - w_i^2
 *
 * with R(r) the Rodrigues rotation by the angle-axis vector r, p the perspective division and
 * distort(x) = x (1 + k1 |x|^2 + k2 |x|^4). Camera layout: r (3), C (3), f, u0, v0, k1, k2.
 */
#include <math.h>

#include "ba.h"

static double sqsum(int n, const double *x) {
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += x[i] * x[i];
    return s;
}

static void cross(const double *a, const double *b, double *out) {
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* out = R(rot) pt; first order (pt + rot x pt) at a zero angle */
static void rodrigues_rotate_point(const double *rot, const double *pt, double *out) {
    double sqtheta = sqsum(3, rot);
    if (sqtheta == 0.0) {
        double rot_cross_pt[3];
        cross(rot, pt, rot_cross_pt);
        for (int i = 0; i < 3; i++)
            out[i] = pt[i] + rot_cross_pt[i];
        return;
    }
    double theta = sqrt(sqtheta);
    double costheta = cos(theta), sintheta = sin(theta);
    double w[3], w_cross_pt[3];
    for (int i = 0; i < 3; i++)
        w[i] = rot[i] / theta;
    cross(w, pt, w_cross_pt);
    double tmp = (w[0] * pt[0] + w[1] * pt[1] + w[2] * pt[2]) * (1.0 - costheta);
    for (int i = 0; i < 3; i++)
        out[i] = pt[i] * costheta + w_cross_pt[i] * sintheta + w[i] * tmp;
}

static void radial_distort(const double *rad_params, double *proj) {
    double rsq = sqsum(2, proj);
    double L = 1.0 + rad_params[0] * rsq + rad_params[1] * rsq * rsq;
    proj[0] *= L;
    proj[1] *= L;
}

static void project(const double *cam, const double *X, double *proj) {
    const double *C = &cam[3];
    double Xo[3], Xcam[3];
    for (int i = 0; i < 3; i++)
        Xo[i] = X[i] - C[i];
    rodrigues_rotate_point(&cam[0], Xo, Xcam);
    proj[0] = Xcam[0] / Xcam[2];
    proj[1] = Xcam[1] / Xcam[2];
    radial_distort(&cam[9], proj);
    proj[0] = proj[0] * cam[6] + cam[7];
    proj[1] = proj[1] * cam[6] + cam[8];
}

void ba_reproj_error(const double *cam, const double *X, const double *w, const double *feat,
                     double *err) {
    double proj[2];
    project(cam, X, proj);
    err[0] = *w * (proj[0] - feat[0]);
    err[1] = *w * (proj[1] - feat[1]);
}

double ba_weight_error(double w) {
    return 1.0 - w * w;
}

void ba_objective(const struct ba_input *in, double *reproj_err, double *w_err) {
    for (int i = 0; i < in->p; i++) {
        const double *cam = &in->cams[BA_CAM_PARAMS * in->obs[2 * i]];
        const double *X = &in->X[3 * in->obs[2 * i + 1]];
        ba_reproj_error(cam, X, &in->w[i], &in->feats[2 * i], &reproj_err[2 * i]);
    }
    for (int i = 0; i < in->p; i++)
        w_err[i] = ba_weight_error(in->w[i]);
}
