//! The distributions the match statistics read: the standard normal one and Student's t (their
//! distribution functions, and the 97.5% quantiles of the 95% intervals).

/// The 97.5% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The 97.5% quantile of Student's t distribution with 1 to 30 degrees of freedom (computed by
/// integrating its density; they agree with the printed tables).
const T975: [f64; 30] = [
    12.706_205, 4.302_653, 3.182_446, 2.776_445, 2.570_582, 2.446_912, 2.364_624, 2.306_004,
    2.262_157, 2.228_139, 2.200_985, 2.178_813, 2.160_369, 2.144_787, 2.131_450, 2.119_905,
    2.109_816, 2.100_922, 2.093_024, 2.085_963, 2.079_614, 2.073_873, 2.068_658, 2.063_899,
    2.059_539, 2.055_529, 2.051_831, 2.048_407, 2.045_230, 2.042_272,
];

/// The 97.5% quantile of Student's t with `df` degrees of freedom (at least 1): the table, then
/// the Cornish-Fisher expansion around the normal quantile (within 1e-6 past 30).
pub fn t975(df: u32) -> f64 {
    match df {
        0 => f64::INFINITY,
        1..=30 => T975[df as usize - 1],
        _ => {
            let (z, v) = (Z95, f64::from(df));
            let g1 = (z.powi(3) + z) / 4.0;
            let g2 = (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / 96.0;
            let g3 = (3.0 * z.powi(7) + 19.0 * z.powi(5) + 17.0 * z.powi(3) - 15.0 * z) / 384.0;
            z + g1 / v + g2 / (v * v) + g3 / (v * v * v)
        }
    }
}

/// The distribution function of Student's t with `df` degrees of freedom (at least 1), by the
/// closed forms of Abramowitz and Stegun (26.7.3 for an odd `df`, 26.7.4 for an even one), of
/// `θ = atan(t/√df)`: `A = 2/π (θ + sinθ cosθ (1 + 2/3 cos²θ + 2·4/(3·5) cos⁴θ + ...))` up to
/// `cos^(df-2)θ`, or `A = sinθ (1 + 1/2 cos²θ + 1·3/(2·4) cos⁴θ + ...)` up to `cos^(df-2)θ`, and
/// `(1 + A)/2`. Past 1000 degrees of freedom, the normal one (within 1e-4 of it there).
pub fn t_cdf(t: f64, df: u32) -> f64 {
    if df == 0 {
        return 0.5;
    }
    if df > 1000 {
        return normal_cdf(t);
    }
    let theta = (t / f64::from(df).sqrt()).atan();
    let (sin, cos) = theta.sin_cos();
    let cos2 = cos * cos;
    let a = if df % 2 == 1 {
        let (mut term, mut sum) = (1.0, 1.0);
        for k in 1..=(df.saturating_sub(3) / 2) {
            let k = f64::from(k);
            term *= cos2 * (2.0 * k) / (2.0 * k + 1.0);
            sum += term;
        }
        let series = if df == 1 { 0.0 } else { sin * cos * sum };
        2.0 / std::f64::consts::PI * (theta + series)
    } else {
        let (mut term, mut sum) = (1.0, 1.0);
        for k in 1..=((df - 2) / 2) {
            let k = f64::from(k);
            term *= cos2 * (2.0 * k - 1.0) / (2.0 * k);
            sum += term;
        }
        sin * sum
    };
    0.5 * (1.0 + a)
}

/// The standard normal distribution function, through `erfc` by the Chebyshev fit of Numerical
/// Recipes' `erfcc` (fractional error below 1.2e-7 everywhere).
pub fn normal_cdf(x: f64) -> f64 {
    let z = x.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = [
        -1.265_512_23,
        1.000_023_68,
        0.374_091_96,
        0.096_784_18,
        -0.186_288_06,
        0.278_868_07,
        -1.135_203_98,
        1.488_515_87,
        -0.822_152_23,
        0.170_872_77,
    ]
    .iter()
    .rev()
    .fold(0.0, |acc, c| acc * t + c);
    let erfc = t * (-z * z + poly).exp();
    if x >= 0.0 {
        1.0 - 0.5 * erfc
    } else {
        0.5 * erfc
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    #[test]
    fn quantiles_and_the_normal_distribution() {
        assert!(close(t975(1), 12.706_205) && close(t975(30), 2.042_272));
        // The expansion past the table meets it, and the normal quantile far away.
        assert!((t975(31) - 2.039_513).abs() < 1e-5, "{}", t975(31));
        assert!((t975(100) - 1.983_972).abs() < 1e-5, "{}", t975(100));
        assert!((t975(1_000_000) - Z95).abs() < 1e-5);
        assert!(close(normal_cdf(0.0), 0.5));
        assert!((normal_cdf(Z95) - 0.975).abs() < 1e-6);
        assert!((normal_cdf(-1.0) - 0.158_655_253_931_457).abs() < 1e-6);
        // Student's t: the quantiles of the table come back, and mpmath's integrals of its
        // density.
        for df in 1..=30 {
            assert!((t_cdf(t975(df), df) - 0.975).abs() < 1e-6, "{df}");
        }
        for (t, df, p) in [
            (2.0, 2, 0.908_248_290_463_863),
            (-1.5, 7, 0.088_649_243_494_985),
            (0.7, 40, 0.756_010_610_619_699),
            (3.0, 1000, 0.998_616_645_477_881),
            (1.0, 1, 0.75),
        ] {
            assert!(
                (t_cdf(t, df) - p).abs() < 1e-9,
                "{t} {df}: {}",
                t_cdf(t, df)
            );
        }
        assert!((t_cdf(3.0, 5000) - normal_cdf(3.0)).abs() < 1e-4);
    }
}
