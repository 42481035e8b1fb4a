package main

import "math"

// WGS84 ellipsoid.
const (
	wgs84A = 6378137.0
	wgs84F = 1 / 298.257223563
)

// lcc is a Lambert conformal conic projection on the WGS84 ellipsoid with one
// standard parallel (lat_1 = lat_2 = lat_0), after Snyder, "Map Projections —
// A Working Manual" (USGS PP 1395, 1987), equations 15-1 to 15-11.
type lcc struct {
	e, n, aF, rho0, lon0 float64
}

// newLCC returns the projection with standard parallel and origin latitude
// lat0 and central meridian lon0, in degrees.
func newLCC(lat0, lon0 float64) *lcc {
	e := math.Sqrt(2*wgs84F - wgs84F*wgs84F)
	p := &lcc{e: e, lon0: lon0 * math.Pi / 180}
	phi := lat0 * math.Pi / 180
	m1 := math.Cos(phi) / math.Sqrt(1-e*e*math.Sin(phi)*math.Sin(phi))
	t1 := p.t(phi)
	p.n = math.Sin(phi)
	p.aF = wgs84A * m1 / (p.n * math.Pow(t1, p.n))
	p.rho0 = p.aF * math.Pow(t1, p.n)
	return p
}

// t is Snyder's t(phi), equation 15-9.
func (p *lcc) t(phi float64) float64 {
	es := p.e * math.Sin(phi)
	return math.Tan(math.Pi/4-phi/2) / math.Pow((1-es)/(1+es), p.e/2)
}

// forward projects longitude and latitude (degrees) to x east and y north of
// the origin, in kilometres.
func (p *lcc) forward(lon, lat float64) (x, y float64) {
	rho := p.aF * math.Pow(p.t(lat*math.Pi/180), p.n)
	theta := p.n * (lon*math.Pi/180 - p.lon0)
	return rho * math.Sin(theta) / 1000, (p.rho0 - rho*math.Cos(theta)) / 1000
}

// inverse maps kilometres back to longitude and latitude in degrees
// (Snyder 15-10, 15-11, 7-9, iterated to convergence).
func (p *lcc) inverse(x, y float64) (lon, lat float64) {
	x, y = x*1000, y*1000
	dy := p.rho0 - y
	rho := math.Copysign(math.Hypot(x, dy), p.n)
	theta := math.Atan2(x, dy)
	t := math.Pow(rho/p.aF, 1/p.n)
	phi := math.Pi/2 - 2*math.Atan(t)
	for i := 0; i < 20; i++ {
		es := p.e * math.Sin(phi)
		next := math.Pi/2 - 2*math.Atan(t*math.Pow((1-es)/(1+es), p.e/2))
		if math.Abs(next-phi) < 1e-13 {
			phi = next
			break
		}
		phi = next
	}
	return (theta/p.n + p.lon0) * 180 / math.Pi, phi * 180 / math.Pi
}
