#pragma once
// The charts follow the window: the dark chart theme on a dark palette.
class QWidget;

namespace tacho::ui {

// The widget's window colour is dark (lightness below the middle).
bool hasDarkPalette(const QWidget& widget);

} // namespace tacho::ui
