// Package picture draws game maps as PNG pictures: a hex map (HexMap) or an
// area map (AreaMap), described as a plain list of things to draw — cells,
// hexsides, markers, lines, a legend and notes — which a ruleset builds from
// one side's View. Sheet puts several such pictures on one page, e.g. a
// strategic map over its tactical maps. The package knows nothing of any
// game and does no I/O.
//
// Output is deterministic: the same input gives the same bytes. All geometry
// is done in integer fixed point (1/256 of a pixel), polygons are filled by
// an integer scanline rasteriser with 4 sub-rows per pixel and exact
// horizontal coverage, and text uses the bitmap face
// golang.org/x/image/font/basicfont, so no floating-point rounding (which
// may differ between CPU architectures) reaches a pixel.
package picture
