#pragma once
// A layout that lays its items out in rows and starts a new row when the next
// item would not fit: a row of buttons that wraps on a narrow window instead
// of making the window's minimum width the sum of the buttons. Its minimum
// width is its widest item's; its height follows the width it is given.
#include <QLayout>
#include <QList>

namespace tacho::ui {

class FlowLayout : public QLayout {
public:
    explicit FlowLayout(QWidget* parent = nullptr, int spacing = 6);
    ~FlowLayout() override;

    void addItem(QLayoutItem* item) override;
    int count() const override { return int(m_items.size()); }
    QLayoutItem* itemAt(int index) const override { return m_items.value(index); }
    QLayoutItem* takeAt(int index) override;

    Qt::Orientations expandingDirections() const override { return {}; }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override { return arrange(QRect(0, 0, width, 0), false); }
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect& rect) override;

    // A stretch: the items after it go to the end of their row.
    void addStretch();

private:
    int arrange(const QRect& rect, bool place) const;

    QList<QLayoutItem*> m_items;
    QList<int> m_stretchBefore;   // indexes of items that start the right-aligned part of a row
    int m_spacing;
};

} // namespace tacho::ui
