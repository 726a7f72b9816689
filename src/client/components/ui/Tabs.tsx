/** Tabs (Radix): arrow keys move between tabs, each tab's panel is labelled by its tab. */
import * as TabsPrimitive from "@radix-ui/react-tabs";
import type { ReactNode } from "react";

export const Tabs = TabsPrimitive.Root;
export const TabsContent = TabsPrimitive.Content;

export function TabsList({ label, children, className = "" }: { label: string; children: ReactNode; className?: string }) {
  return (
    <TabsPrimitive.List
      aria-label={label}
      className={`flex max-w-full flex-wrap gap-1 rounded-lg bg-slate-100 p-1 dark:bg-slate-800/70 ${className}`}
    >
      {children}
    </TabsPrimitive.List>
  );
}

export function TabsTrigger({ value, children }: { value: string; children: ReactNode }) {
  return (
    <TabsPrimitive.Trigger
      value={value}
      className={
        "inline-flex shrink-0 items-center gap-1.5 whitespace-nowrap rounded-md px-3 py-1.5 text-sm font-medium text-slate-600 transition-colors " +
        "hover:text-slate-900 data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow-sm " +
        "dark:text-slate-300 dark:hover:text-white dark:data-[state=active]:bg-slate-950 dark:data-[state=active]:text-white [&>svg]:size-4"
      }
    >
      {children}
    </TabsPrimitive.Trigger>
  );
}
