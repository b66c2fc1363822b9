'use client';
import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * Shows `children` (server-rendered) until the element comes within `margin` of the viewport, then `render()` —
 * how below-the-fold islands (the swiper carousel, the price card) stay out of the page's first load.
 */
export function WhenNear({
  children,
  render,
  testId,
  margin = '300px',
}: {
  children: ReactNode;
  render: () => ReactNode;
  testId?: string;
  margin?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), {
      rootMargin: margin,
    });
    io.observe(el);
    return () => io.disconnect();
  }, [margin]);
  return (
    <div ref={ref} data-testid={testId}>
      {near ? render() : children}
    </div>
  );
}
